//! A front end that links atomc as a library: three kernels, one built with atomc's own
//! `FunctionBuilder` and two with `cranelift-frontend` (imported through `atomc::clif`),
//! compiled for sm_90 and sm_50 on parallel threads, their resource usage printed, each
//! target's three kernels put into one cubin, and the located diagnostics of two kernels a
//! target refuses.

mod kernels;

use atomc::ir::Function;
use atomc::{CompiledKernel, Target};

fn main() {
    let kernels: Vec<Function> = vec![kernels::count(), kernels::histogram(), kernels::max_index()];
    let targets = [Target::Sm90, Target::Sm50];

    // Every (kernel, target) pair on its own thread: a compile shares nothing with another.
    let compiled: Vec<(Target, Vec<CompiledKernel>)> = std::thread::scope(|s| {
        let jobs: Vec<_> = targets
            .iter()
            .map(|&t| {
                let handles: Vec<_> = kernels
                    .iter()
                    .map(|f| s.spawn(move || atomc::compile_kernel(f, t, &Default::default())))
                    .collect();
                (t, handles)
            })
            .collect();
        jobs.into_iter()
            .map(|(t, handles)| {
                let ks = handles.into_iter().map(|h| h.join().expect("no panic").unwrap_or_else(|e| fail(&e)));
                (t, ks.collect())
            })
            .collect()
    });

    for (target, ks) in &compiled {
        for (f, k) in kernels.iter().zip(ks) {
            let u = k.usage().unwrap_or_else(|e| fail(&e));
            println!(
                "{target} %{}: {} registers, {} instructions, {} bytes shared, {} bytes stack, {} barriers, {} bytes parameters",
                f.name, u.registers, u.instructions, u.shared_bytes, u.stack_bytes, u.barriers, u.param_bytes
            );
        }
        let module = atomc::cubin_module(&ks.iter().collect::<Vec<_>>()).unwrap_or_else(|e| fail(&e));
        assert_eq!(&module[..4], b"\x7fELF");
        println!("{target} module: {} kernels, {} bytes of cubin", ks.len(), module.len());
    }

    // A kernel built in code that sm_50 refuses: the diagnostic names the instruction and the
    // place in this program that built it.
    let (bad, file) = kernels::fma16();
    report(&bad, Target::Sm50, file);
    // The same through cranelift-frontend: CLIF's `SourceLoc` comes through the import.
    let (bad, file) = kernels::fma16_clif();
    report(&bad, Target::Sm50, file);
}

/// Compiles a kernel the target should refuse and prints the refusal as the verifier prints.
fn report(f: &Function, target: Target, file: &str) {
    match atomc::compile_kernel(f, target, &Default::default()) {
        Ok(_) => fail(&format!("%{} compiled for {target}", f.name)),
        Err(e) => {
            for d in e.diagnostics() {
                println!("{}", d.headline(file));
            }
        }
    }
}

fn fail(e: &dyn std::fmt::Display) -> ! {
    eprintln!("error: {e}");
    std::process::exit(1)
}
