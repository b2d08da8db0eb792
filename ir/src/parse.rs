//! The text parser (placeholder).
