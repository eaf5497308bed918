use std::time::Instant;
use ysai::params::HeightCutoff;
use ysai::search::{beam_search, BeamConfig, BeamRoot, Target};
use ysai::sim::{PlayerState, PreparedPack, Shift};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(3, |s| s.parse().unwrap());
    for i in 0..n {
        let text = std::fs::read_to_string(format!("/tmp/packs521/pack/pack_{i:04}.pack")).unwrap();
        let game = ysai::protocol::Reader::new(text.as_bytes())
            .next_event()
            .unwrap()
            .unwrap();
        let ysai::protocol::Event::GameStart(packs) = game else {
            panic!()
        };
        let packs: Vec<PreparedPack> = packs.iter().map(|&p| PreparedPack::new(p)).collect();
        let mut cfg = BeamConfig::new(16, 5000, 1500);
        cfg.target = Some(Target {
            chain: 12,
            keep_offset: -1,
            stop: false,
        });
        cfg.stop_chain = Some(16);
        cfg.min_x = 2;
        cfg.max_x = 6;
        cfg.height_cutoff = HeightCutoff::Qualifier;
        let t = Instant::now();
        let r = beam_search::<Shift>(
            BeamRoot {
                state: PlayerState::default(),
                enemy_ojama: 0,
                packs: &packs,
            },
            &cfg,
        );
        println!(
            "pack {i}: depth12 {:?} best {} max {} depth {} nodes {} sim {} {:.2}s",
            r.earliest_depth(12),
            r.best_chain,
            r.max_chain,
            r.depth,
            r.nodes,
            r.sim_calls,
            t.elapsed().as_secs_f64()
        );
    }
}
