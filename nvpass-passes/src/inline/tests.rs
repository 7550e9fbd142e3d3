//! Unit tests of the cost models and inlining helpers.
