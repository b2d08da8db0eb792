//! atomc
