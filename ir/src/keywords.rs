//! Keyword enums: every enum whose values are spelled as one word in the
//! text format is declared once here, with its spelling, so the printer and
//! the parser cannot disagree.

/// Declares a fieldless enum together with its text spelling:
/// `name()`, `from_name()` and `ALL` (in declaration order).
macro_rules! keyword_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )+ ];

            /// The spelling in the text format.
            pub fn name(self) -> &'static str {
                match self { $( $name::$variant => $text, )+ }
            }

            /// Parses the spelling used in the text format.
            pub fn from_name(s: &str) -> Option<$name> {
                match s { $( $text => Some($name::$variant), )+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub(crate) use keyword_enum;
