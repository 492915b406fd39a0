//! The `rulebook` command: a thin shell around [`rulebook::cli`].

fn main() -> std::process::ExitCode {
    rulebook::cli::main()
}
