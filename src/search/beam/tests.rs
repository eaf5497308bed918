use super::*;
use crate::bench::bench_positions;
use crate::sim::game::OJAMA_ROW;
use crate::sim::{PlayerState, Shift};
use ysai_tables::chain_ojama;

fn child(chain: u8, total: i64, key: u64) -> Child {
    Child {
        key,
        total,
        parent: 0,
        action: 1,
        path_chain: chain,
        chain,
        fire: 0,
    }
}

#[test]
fn frontier_takes_exactly_the_bucket_width_highest_chain_first() {
    let mut candidates: Vec<Child> = (0..5).map(|k| child(9, 100 - k, k as u64)).collect();
    candidates.extend((0..3).map(|k| child(7, 50, 10 + k)));
    candidates.extend((0..10).map(|k| child(2, 10, 20 + k)));
    let chosen = choose_frontier(&candidates, 8, 4);
    let chains: Vec<u8> = chosen.iter().map(|c| c.chain).collect();
    assert_eq!(chains, [9, 9, 9, 9, 7, 7, 7, 2]);
    assert_eq!(chosen[0].total, 100, "the best of a bucket goes first");
    assert!(choose_frontier(&candidates, 0, 4).is_empty());
}

/// Every drop the lookahead takes from the parent's field does on the child exactly what
/// it did there; and a drop that only misses the changed columns, without a column
/// between them, may not.
#[test]
fn a_drop_far_from_a_childs_changes_does_on_it_what_it_did_on_the_parent() {
    let (mut reused, mut reused_chains, mut adjacent_differs) = (0, 0, 0);
    for position in bench_positions() {
        // The position, and the same with a row of ojama about to fall.
        let mut pending = position.me;
        pending.ojama += OJAMA_ROW;
        for me in [position.me, pending] {
            let parent = Node {
                state: me,
                enemy_ojama: 0,
                path_chain: 0,
            };
            let (pack, next) = (&position.packs[0], &position.packs[1]);
            let outcomes = drop_outcomes::<Shift>(&me.field, next);
            for &action in Action::drops() {
                let Some(child) = play::<Shift>(&parent, pack, action, 0) else {
                    continue;
                };
                let field = &child.state.field;
                let changed = me.field.changed_columns(field);
                for (i, &drop) in Action::drops().iter().enumerate() {
                    let Action::Drop { x: dx, rot } = drop else {
                        continue;
                    };
                    let own = field.drop_outcome::<Shift>(next, dx, rot);
                    let kept = outcomes[i];
                    if kept.holds_beside(changed) {
                        assert_eq!(own, kept, "{}: {action} then {drop}", position.name);
                        reused += 1;
                        reused_chains += usize::from(kept.chains > 0);
                    } else if kept.columns & changed == 0 && own != kept {
                        adjacent_differs += 1;
                    }
                }
            }
        }
    }
    assert!(
        reused > 1000 && reused_chains > 100,
        "{reused} reused, {reused_chains} chains"
    );
    assert!(adjacent_differs > 0, "a neighbouring column changes a drop");
}

/// Children in frontier order with keys, path chains and ranks from a fixed scramble.
fn scrambled_children(count: u32, keys: u64) -> Vec<Child> {
    (0..count)
        .map(|i| {
            let mix = u64::from(i).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 7;
            Child {
                // Keys that differ only above bit 40, so that their low bits all collide.
                key: (mix % keys) << 40,
                total: (mix >> 20) as i64 % 50,
                parent: i / 20,
                action: (i % 20) as u8 + 1,
                path_chain: (mix >> 30) as u8 % 4,
                chain: (mix >> 40) as u8 % 6,
                fire: 0,
            }
        })
        .collect()
}

#[test]
fn dedup_keeps_the_best_path_chain_then_the_earliest_in_frontier_order() {
    let children = scrambled_children(3000, 700);
    let mut deduped = children.clone();
    dedup_by_key(&mut deduped);
    let mut expected = children.clone();
    expected.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.path_chain.cmp(&a.path_chain))
            .then((a.parent, a.action).cmp(&(b.parent, b.action)))
    });
    expected.dedup_by_key(|c| c.key);
    expected.sort_by_key(|c| (c.parent, c.action));
    assert!(expected.len() < children.len() / 2, "the keys repeat");
    let order =
        |v: &[Child]| -> Vec<(u32, u8)> { v.iter().map(|c| (c.parent, c.action)).collect() };
    assert_eq!(order(&deduped), order(&expected));
}

#[test]
fn ranking_fronts_each_bucket_with_its_best_in_rank_order() {
    let children = scrambled_children(3000, u64::MAX);
    let mut sorted = children.clone();
    sorted.sort_by(|a, b| {
        b.chain
            .cmp(&a.chain)
            .then(b.total.cmp(&a.total))
            .then(a.tie_key().cmp(&b.tie_key()))
    });
    let width = 37;
    let mut ranked = group_by_chain(children);
    sort_buckets(&mut ranked, width);
    assert_eq!(ranked.len(), sorted.len());
    let ranked_buckets: Vec<&[Child]> = ranked.chunk_by(|a, b| a.chain == b.chain).collect();
    let sorted_buckets: Vec<&[Child]> = sorted.chunk_by(|a, b| a.chain == b.chain).collect();
    assert_eq!(ranked_buckets.len(), 6);
    assert_eq!(ranked_buckets.len(), sorted_buckets.len());
    let ids = |v: &[Child]| -> Vec<(u32, u8)> { v.iter().map(|c| (c.parent, c.action)).collect() };
    for (got, want) in ranked_buckets.iter().zip(&sorted_buckets) {
        assert_eq!(got.len(), want.len());
        assert_eq!(ids(&got[..width]), ids(&want[..width]));
        let mut rest = ids(&got[width..]);
        rest.sort();
        let mut want_rest = ids(&want[width..]);
        want_rest.sort();
        assert_eq!(rest, want_rest, "the rest of a bucket is the same children");
    }
    assert_eq!(
        ids(&choose_frontier(&ranked, 100, width)),
        ids(&choose_frontier(&sorted, 100, width))
    );
}

fn position(name: &str) -> crate::bench::BenchPosition {
    bench_positions()
        .into_iter()
        .find(|p| p.name == name)
        .expect("bench position")
}

fn root(p: &crate::bench::BenchPosition) -> BeamRoot<'_> {
    BeamRoot {
        state: p.me,
        enemy_ojama: p.enemy_ojama,
        packs: &p.packs,
    }
}

#[test]
fn earliest_depth_counts_every_chain_at_least_that_long() {
    let p = position("initial");
    let mut beam = Beam::<Shift>::new(root(&p), BeamConfig::new(1, 10, 10));
    beam.note_chain(12, 5);
    beam.note_chain(14, 7);
    let r = &beam.result;
    assert_eq!(r.earliest_depth(10), Some(5));
    assert_eq!(r.earliest_depth(12), Some(5));
    assert_eq!(r.earliest_depth(13), Some(7));
    assert_eq!(r.earliest_depth(15), None);
    assert_eq!((r.max_chain, r.max_chain_depth), (14, 7));
}

#[test]
fn keys_tell_stocks_apart() {
    let node = Node {
        state: PlayerState::default(),
        enemy_ojama: 0,
        path_chain: 0,
    };
    let mut stocked = node;
    stocked.state.ojama = 3;
    let mut sent = node;
    sent.enemy_ojama = 3;
    let keys = [
        node_key(&node, 4),
        node_key(&stocked, 4),
        node_key(&sent, 4),
    ];
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[0], keys[2]);
    assert_ne!(keys[1], keys[2]);
    assert_ne!(node_key(&node, 4), node_key(&node, 5));
}

#[test]
fn the_search_stops_at_the_last_pack() {
    let p = position("initial");
    let r = search::<Shift>(
        BeamRoot {
            packs: &p.packs[..3],
            ..root(&p)
        },
        &BeamConfig::new(16, 50, 20),
    );
    assert_eq!(r.depth, 3);
    assert_eq!(r.plan.len(), 3);
}

/// Plays `plan` from `root` as the beam does and returns the state reached.
fn replay(root: &BeamRoot<'_>, plan: &[Action]) -> PlayerState {
    let mut node = Node {
        state: root.state,
        enemy_ojama: root.enemy_ojama,
        path_chain: 0,
    };
    node.state.drop_pending_ojama();
    for (action, pack) in plan.iter().zip(root.packs) {
        node = play::<Shift>(&node, pack, *action, 0).expect("the plan survives");
    }
    node.state
}

#[test]
fn the_plan_reaches_a_field_that_fires_the_reported_chain() {
    for name in ["initial", "segfault", "dead"] {
        let p = position(name);
        let r = search::<Shift>(root(&p), &BeamConfig::new(6, 200, 60));
        assert_eq!(r.plan.len(), r.depth, "{name}");
        let mut end = replay(&root(&p), &r.plan);
        let fire = r.best_fire.expect("the best node has a move");
        let fired = end.act::<Shift>(&p.packs[r.plan.len()], fire);
        assert_eq!(fired.chains, r.best_chain, "{name}");
        assert!(r.max_chain >= r.best_chain);
        assert!(r.earliest_depth(r.max_chain).is_some());
    }
}

#[test]
fn injected_ojama_falls_after_the_given_move() {
    let p = position("initial");
    let free = search::<Shift>(root(&p), &BeamConfig::new(3, 30, 10));
    assert_eq!(free.depth, 3);
    let buried = BeamConfig {
        injection: Some(Injection {
            after_moves: 1,
            ojama: 10,
        }),
        ..BeamConfig::new(3, 30, 10)
    };
    let first = nodes_after_one_move(&p, buried);
    assert!(first.iter().all(|n| n.state.field.ojama().popcount() == 10));
    let heavy = BeamConfig {
        injection: Some(Injection {
            after_moves: 1,
            ojama: 200,
        }),
        ..BeamConfig::new(3, 30, 10)
    };
    let first = nodes_after_one_move(&p, heavy);
    assert!(first
        .iter()
        .all(|n| n.state.ojama == 190 && n.state.field.ojama().popcount() == 10));
}

/// The frontier after the first move, from a root that holds no ojama.
fn nodes_after_one_move(p: &crate::bench::BenchPosition, config: BeamConfig) -> Vec<Node> {
    let mut beam = Beam::<Shift>::new(root(p), config);
    assert!(beam.levels[0].nodes[0].state.field.ojama().is_zero());
    assert!(beam.step() && beam.step());
    beam.levels[1].nodes.clone()
}

#[test]
fn once_the_target_is_found_only_the_kept_buckets_survive() {
    let p = position("initial");
    let config = BeamConfig {
        target: Some(Target {
            chain: 6,
            keep_offset: -1,
            stop: false,
        }),
        ..BeamConfig::new(10, 300, 80)
    };
    let mut beam = Beam::<Shift>::new(root(&p), config);
    while beam.result.target_depth.is_none() {
        assert!(beam.step(), "a 6-chain is reachable from this position");
    }
    assert!(!beam.candidates.is_empty());
    assert!(beam.candidates.iter().all(|c| c.chain >= 5));
    let stopping = BeamConfig {
        target: Some(Target {
            chain: 6,
            keep_offset: -1,
            stop: true,
        }),
        ..BeamConfig::new(10, 300, 80)
    };
    let r = search::<Shift>(root(&p), &stopping);
    assert_eq!(Some(r.depth), r.target_depth);
    let stop_chain = BeamConfig {
        stop_chain: Some(6),
        ..BeamConfig::new(10, 300, 80)
    };
    let r = search::<Shift>(root(&p), &stop_chain);
    assert!(r.max_chain >= 6);
    assert_eq!(r.depth, r.earliest_depth(6).unwrap());
}

#[test]
fn with_a_stop_chain_the_plan_ends_in_the_highest_bucket() {
    let p = position("dead");
    for stop_chain in [None, Some(40)] {
        let config = BeamConfig {
            stop_chain,
            ..BeamConfig::new(6, 200, 60)
        };
        let mut beam = Beam::<Shift>::new(root(&p), config);
        while beam.step() {}
        let top = beam.candidates[0].chain;
        let best_total = beam.candidates.iter().map(|c| c.total).max().unwrap();
        let overall = beam
            .candidates
            .iter()
            .find(|c| c.total == best_total)
            .unwrap()
            .chain;
        let result = beam.finish();
        let expected = if stop_chain.is_some() { top } else { overall };
        assert_eq!(
            result.best_chain,
            u32::from(expected),
            "stop chain {stop_chain:?}"
        );
    }
}

#[test]
fn a_node_budget_ends_the_search_at_a_depth_boundary() {
    let p = position("error");
    let full = search::<Shift>(root(&p), &BeamConfig::new(6, 200, 60));
    let budget = full.nodes / 2;
    let cut = search::<Shift>(
        root(&p),
        &BeamConfig {
            node_budget: Some(budget),
            ..BeamConfig::new(6, 200, 60)
        },
    );
    assert!(cut.nodes >= budget && cut.nodes < full.nodes);
    assert!(cut.depth < full.depth);
    assert!(!cut.timed_out);
}

#[test]
fn a_past_deadline_returns_the_root_at_once() {
    let p = position("error");
    let config = BeamConfig {
        deadline: Some(Instant::now()),
        ..BeamConfig::new(6, 200, 60)
    };
    let r = search::<Shift>(root(&p), &config);
    assert!(r.timed_out);
    assert_eq!((r.depth, r.plan.len(), r.nodes), (0, 0, 0));
}

#[test]
fn the_width_that_fits_shares_the_time_left_among_the_depths_to_come() {
    let cost = DepthCost {
        took: Duration::from_millis(100),
        frontier: 1000,
    };
    let ms = Duration::from_millis;
    // 0.1 ms a node: 4 depths in 800 ms of 1,000 ms hold 2,000 nodes each.
    assert_eq!(width_that_fits(5000, cost, ms(1000), 4), Some(2000));
    assert_eq!(width_that_fits(1500, cost, ms(1000), 4), None, "it fits");
    assert_eq!(width_that_fits(5000, cost, ms(0), 4), Some(MIN_FIT_WIDTH));
    let small = DepthCost {
        frontier: 22,
        ..cost
    };
    assert_eq!(
        width_that_fits(5000, small, ms(10), 4),
        None,
        "too few to tell"
    );
}

#[test]
fn a_beam_fitted_to_its_deadline_narrows_and_searches_deeper() {
    let p = position("initial");
    let config = |fit_deadline| BeamConfig {
        deadline: Some(Instant::now() + Duration::from_millis(800)),
        fit_deadline,
        ..BeamConfig::new(8, 20_000, 6_000)
    };
    let cut = search::<Shift>(root(&p), &config(None));
    let fitted = search::<Shift>(root(&p), &config(Some(8)));
    assert!(
        cut.timed_out && cut.depth < 8,
        "20,000 wide is too wide here"
    );
    assert_eq!(cut.width, 20_000);
    assert!(fitted.width < 20_000);
    assert!(
        fitted.depth > cut.depth,
        "fitted {} against {}",
        fitted.depth,
        cut.depth
    );
}

/// Ranking by potential only the buckets that keep some of their nodes finds what ranking
/// every child finds: the same frontiers, fires and plan.
#[test]
fn ranking_only_the_kept_buckets_changes_nothing_the_beam_finds() {
    let mut unranked = 0;
    for p in bench_positions() {
        for (stop_chain, bucket_width) in [(None, 40), (None, 12), (Some(11), 40)] {
            let config = BeamConfig {
                eval: BeamEval::Potential,
                stop_chain,
                ..BeamConfig::new(6, 120, bucket_width)
            };
            let kept = Beam::<Shift>::new(root(&p), config.clone()).run();
            let mut every = Beam::<Shift>::new(root(&p), config);
            every.rank_every_bucket = true;
            let mut every = every.run();
            for (depth, buckets) in kept.buckets.iter().enumerate() {
                for (i, bucket) in buckets.iter().enumerate() {
                    if bucket.best.is_none() {
                        unranked += 1;
                        every.buckets[depth][i].best = None;
                    }
                }
            }
            assert_eq!(kept, every, "{}, {stop_chain:?}, {bucket_width}", p.name);
        }
    }
    assert!(unranked > 10, "{unranked} buckets left unranked");
}

/// A beam that chooses no plan records what one that does records, depth by depth.
#[test]
fn a_beam_that_chooses_no_plan_records_the_same_depths() {
    for p in bench_positions() {
        let config = BeamConfig {
            eval: BeamEval::Potential,
            ..BeamConfig::new(6, 120, 40)
        };
        let planned = search::<Shift>(root(&p), &config);
        let recorded = search::<Shift>(
            root(&p),
            &BeamConfig {
                choose_plan: false,
                ..config
            },
        );
        assert!(
            recorded.plan.is_empty() && recorded.best_fire.is_none(),
            "{}",
            p.name
        );
        assert_eq!(recorded.fires, planned.fires, "{}", p.name);
        assert_eq!(
            (
                recorded.earliest,
                recorded.max_chain,
                recorded.depth,
                recorded.nodes
            ),
            (
                planned.earliest,
                planned.max_chain,
                planned.depth,
                planned.nodes
            ),
            "{}",
            p.name
        );
    }
}

#[test]
fn the_plan_does_not_depend_on_the_number_of_threads() {
    for name in ["initial", "must_not_die"] {
        let p = position(name);
        let config = BeamConfig {
            node_budget: Some(15_000),
            ..BeamConfig::new(8, 250, 70)
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            pool.install(|| search::<Shift>(root(&p), &config))
        };
        let one = run(1);
        assert!(one.depth >= 2, "{name}: the budget covers several depths");
        for threads in [2, 16] {
            assert_eq!(run(threads), one, "{name} at {threads} threads");
        }
    }
}

#[test]
fn a_turn_zero_tall_column_is_worth_nothing_under_the_qualifier_cutoff() {
    let tall = crate::sim::Field::from_picture(&[
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
        "1.........",
    ])
    .expect("picture");
    let node = Node {
        state: PlayerState {
            field: tall,
            ..PlayerState::default()
        },
        enemy_ojama: 0,
        path_chain: 9,
    };
    let p = position("initial");
    let score = |cutoff| {
        let mut c = child(0, 0, 0);
        c.path_chain = 9;
        evaluate::<Shift>(
            &mut c,
            &node,
            Some(&p.packs[0]),
            cutoff,
            BeamEval::Chain,
            None,
        );
        c.total
    };
    assert_eq!(score(HeightCutoff::Qualifier), 0);
    assert_eq!(score(HeightCutoff::Final), chain_ojama(9) * 1000);
    assert!(score(HeightCutoff::Off) > chain_ojama(9) * 1000);
}

#[test]
fn a_forced_first_move_starts_every_path() {
    let p = position("initial");
    let forced = Action::Drop { x: 7, rot: 2 };
    let config = BeamConfig {
        first_move: Some(forced),
        ..BeamConfig::new(4, 100, 40)
    };
    let r = search::<Shift>(root(&p), &config);
    assert_eq!(r.plan.first(), Some(&forced));
}

#[test]
fn the_skill_evaluation_ranks_by_destroyable_blocks_and_gauge() {
    let field = crate::sim::Field::from_picture(&["15", "55"]).expect("picture");
    let node = Node {
        state: PlayerState {
            field,
            gauge: 90,
            ..PlayerState::default()
        },
        enemy_ojama: 0,
        path_chain: 0,
    };
    let mut c = child(0, 0, 0);
    evaluate::<Shift>(
        &mut c,
        &node,
        None,
        HeightCutoff::Off,
        BeamEval::Skill {
            count_blocks: false,
        },
        None,
    );
    assert_eq!((c.chain, c.total), (4, 4 * 80), "the gauge counts up to 80");
    evaluate::<Shift>(
        &mut c,
        &node,
        None,
        HeightCutoff::Off,
        BeamEval::Skill { count_blocks: true },
        None,
    );
    assert_eq!(
        c.total,
        (4 + 4) * 80,
        "the qualifier adds the numbered blocks"
    );
}

/// The rank of the field a recorded fire leaves, played from the beam's root.
fn left_by(p: &crate::bench::BenchPosition, fire: &Fire) -> i64 {
    let mut node = Node {
        state: p.me,
        enemy_ojama: p.enemy_ojama,
        path_chain: 0,
    };
    node.state.drop_pending_ojama();
    let (last, before) = fire.path.split_last().expect("a fire is a move");
    for (pack, &action) in p.packs.iter().zip(before) {
        node = play::<Shift>(&node, pack, action, 0).expect("a recorded path lives");
    }
    left_after_fire::<Shift>(&node, &p.packs[before.len()], action_index(*last))
}

/// Of the lines that fire a depth's biggest chain, the fire recorded is the one that leaves
/// the best field, and so at least as good a field as the first of them in rank order: the
/// same chain, the same frontiers, a better start for the next chain.
#[test]
fn a_depths_fire_leaves_the_best_field_among_equal_chains() {
    let (mut depths, mut better) = (0, 0);
    for p in bench_positions() {
        let config = BeamConfig {
            eval: BeamEval::Potential,
            ..BeamConfig::new(6, 120, 40)
        };
        let first = BeamConfig {
            fires_weighed: 1,
            ..config.clone()
        };
        let weighed = search::<Shift>(root(&p), &config);
        let ranked = search::<Shift>(root(&p), &first);
        assert_eq!(
            weighed.buckets, ranked.buckets,
            "{}: the same frontiers",
            p.name
        );
        for (depth, (w, r)) in weighed.fires.iter().zip(&ranked.fires).enumerate() {
            let (Some(w), Some(r)) = (w, r) else {
                assert_eq!(w.is_some(), r.is_some(), "{} depth {depth}", p.name);
                continue;
            };
            assert_eq!(
                (w.chains, w.ojama),
                (r.chains, r.ojama),
                "{} depth {depth}",
                p.name
            );
            let (left_w, left_r) = (left_by(&p, w), left_by(&p, r));
            assert!(
                left_w >= left_r,
                "{} depth {depth}: {left_w} < {left_r}",
                p.name
            );
            depths += 1;
            better += usize::from(left_w > left_r);
        }
    }
    assert!(
        better > 0 && better < depths,
        "{better} of {depths} depths left a better field"
    );
}
