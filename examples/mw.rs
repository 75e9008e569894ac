use pipeline::games::holdem::multiway::{representative, sample};
fn main() {
    for n in [1usize, 2, 3, 5, 9] {
        let mut rng = pipeline::engine::stream(1, n as u64);
        let t = std::time::Instant::now();
        let s = sample(representative(0), n, 0.0, 0, 10_000_000, &mut rng);
        let el = t.elapsed().as_secs_f64();
        println!(
            "{n} opp: equity {:.4} ± {:.5}  {:.1} M trials/s",
            s.equity(),
            s.std_error(),
            s.trials as f64 / el / 1e6
        );
    }
}
