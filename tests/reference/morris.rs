//! Nine Men's Morris reference: being written.
