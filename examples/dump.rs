fn main() {
    let path = std::env::args().nth(1).unwrap();
    let source = rulebook::spec::load(&path).unwrap();
    let g = rulebook::compile::compile_tree_walking(&source, &[]).unwrap();
    for a in &g.actions {
        println!("{:?}", a.parts);
    }
    println!("ENDS {:?}", g.ends);
    println!("PHASES {:?}", g.phases);
}
