fn main() {
    println!("obbtree");
}
