//! The games one server hosts ([`Games`]): the built-in ones, compiled in one
//! cargo feature each, and any registered with [`Games::with`].

use std::sync::Arc;

use qiyuan_table::{Millis, Preset, TableConfig, TimeControl};

use super::*;

/// The games one server hosts, in the order the clients list them.
#[derive(Debug, Clone)]
pub struct Games(Arc<Vec<Descriptor>>);

impl Default for Games {
    fn default() -> Self {
        Games::builtin()
    }
}

impl Games {
    /// The games compiled into this server (one cargo feature each).
    pub fn builtin() -> Self {
        let games: Vec<Descriptor> = vec![
            #[cfg(feature = "chess")]
            builtin::chess(),
            #[cfg(feature = "xiangqi")]
            builtin::xiangqi(),
            #[cfg(feature = "go")]
            builtin::go(),
            #[cfg(feature = "doudizhu")]
            builtin::doudizhu(),
        ];
        Games(Arc::new(games))
    }

    /// These games and one more (a game of the same name is replaced).
    pub fn with(self, game: Descriptor) -> Self {
        let mut games: Vec<Descriptor> = self
            .0
            .iter()
            .filter(|g| g.name != game.name)
            .cloned()
            .collect();
        games.push(game);
        Games(Arc::new(games))
    }

    /// These games with the operator's external engines' levels added to the
    /// games they play. An engine may play only a hosted game with built-in
    /// computer players (they stand in when the engine fails).
    pub fn with_engines(self, engines: &[crate::engines::EngineConfig]) -> anyhow::Result<Self> {
        let mut games: Vec<Descriptor> = self.0.as_ref().clone();
        for e in engines {
            for g in &e.games {
                let Some(d) = games.iter().find(|d| d.name == g.as_str()) else {
                    anyhow::bail!("engines: {} plays {g:?}, which is not hosted here", e.name);
                };
                if d.bot_levels.is_empty() {
                    anyhow::bail!(
                        "engines: {} plays {g}, which has no built-in computer players to stand in for it",
                        e.name
                    );
                }
            }
        }
        for d in &mut games {
            for level in crate::engines::Engines::levels_for(engines, d.name) {
                d.bots.push(level.key.to_string());
                d.bot_levels.push(level);
            }
        }
        Ok(Games(Arc::new(games)))
    }

    /// The descriptor of the game called `name`, if it is hosted here.
    pub fn get(&self, name: &str) -> Option<&Descriptor> {
        self.0.iter().find(|g| g.name == name)
    }

    /// The descriptor of `name`, or a message naming the games hosted here.
    pub fn find(&self, name: &str) -> Result<&Descriptor, String> {
        self.get(name).ok_or_else(|| {
            format!(
                "unknown game {name:?}; this server hosts {}",
                self.names().join(", ")
            )
        })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|g| g.name).collect()
    }

    pub fn all(&self) -> &[Descriptor] {
        &self.0
    }

    /// A new table of the named game.
    pub fn new_table(&self, game: &str, config: TableConfig) -> Result<Box<dyn AnyTable>, String> {
        self.find(game)?.new_table(config)
    }
}

/// The built-in games' entries.
mod builtin {
    #[allow(unused_imports)]
    use super::computer::*;
    #[allow(unused_imports)]
    use super::*;

    #[cfg(feature = "chess")]
    pub fn chess() -> Descriptor {
        Descriptor::new::<qiyuan_chess::ChessGame, ChessBots>(2)
            .label("国际象棋", "Chess", "♞")
            .seat_names(&["white", "black"])
            .presets(vec![
                TimePreset::of(Preset::Quick),
                TimePreset::of(Preset::Match),
                TimePreset::of(Preset::Bullet),
                TimePreset::of(Preset::Blitz),
                TimePreset::of(Preset::Rapid),
                TimePreset::of(Preset::Classical),
                TimePreset::of(Preset::Correspondence),
            ])
            .rating_pools(RatingPools::BySpeed)
            .api_variant(ApiVariant {
                key: "standard",
                name: "Standard",
                short: "Std",
                rank_offset: 0,
            })
    }

    #[cfg(feature = "xiangqi")]
    pub fn xiangqi() -> Descriptor {
        Descriptor::new::<qiyuan_xiangqi::Xiangqi, XiangqiBots>(2)
            .label("中国象棋", "Xiangqi", "帥")
            .seat_names(&["red", "black"])
            .notation("wxf", super::replay::xiangqi_wxf)
            .api_variant(ApiVariant {
                key: "xiangqi",
                name: "Xiangqi",
                short: "Xiangqi",
                rank_offset: 1,
            })
            .presets(vec![
                TimePreset::of(Preset::Quick),
                TimePreset::of(Preset::Match),
                TimePreset::of(Preset::Blitz),
                TimePreset::of(Preset::Rapid),
                TimePreset::of(Preset::Classical),
                TimePreset::of(Preset::Correspondence),
            ])
    }

    /// Go's quick and match modes are byo-yomi (QQ围棋 counts 3 periods of 30 s,
    /// or of 60 s in match mode).
    #[cfg(feature = "go")]
    pub fn go() -> Descriptor {
        let size = |key: &'static str, label: &'static str, size: u8| OptionPreset {
            key,
            zh: label,
            en: label,
            options: serde_json::json!({ "size": size, "komi": 7.5, "handicap": 0 }),
        };
        Descriptor::new::<qiyuan_go::Go, GoBots>(2)
            .label("围棋", "Go", "●")
            .seat_names(&["black", "white"])
            .option_presets(
                "棋盘",
                "Board",
                vec![
                    size("9", "9×9", 9),
                    size("13", "13×13", 13),
                    size("19", "19×19", 19),
                ],
            )
            .record(RecordFormat::SGF)
            .presets(vec![
                TimePreset::new(
                    "quick",
                    "快棋 读秒",
                    "Quick byo-yomi",
                    TimeControl::byo_yomi(10, 3, 30),
                ),
                TimePreset::new(
                    "match",
                    "比赛 读秒",
                    "Match byo-yomi",
                    TimeControl::byo_yomi(60, 3, 60),
                ),
                TimePreset::new(
                    "byo_yomi_fast",
                    "日本读秒 快",
                    "Byo-yomi fast",
                    Preset::ByoYomiFast.control(),
                ),
                TimePreset::new(
                    "byo_yomi_normal",
                    "日本读秒",
                    "Byo-yomi",
                    Preset::ByoYomiNormal.control(),
                ),
                TimePreset::new(
                    "byo_yomi_slow",
                    "日本读秒 慢",
                    "Byo-yomi slow",
                    Preset::ByoYomiSlow.control(),
                ),
                TimePreset::new(
                    "canadian",
                    "加拿大读秒",
                    "Canadian",
                    Preset::CanadianClub.control(),
                ),
                TimePreset::new(
                    "fischer",
                    "费舍尔 10+5",
                    "Fischer 10+5",
                    Preset::Rapid.control(),
                ),
                TimePreset::new("qq", "QQ 30/5/3", "QQ 30/5/3", Preset::Match.control()),
                TimePreset::new(
                    "correspondence",
                    "通讯棋 3天",
                    "Correspondence 3 days",
                    Preset::Correspondence.control(),
                ),
                TimePreset::new("none", "不限时", "No clock", TimeControl::None),
            ])
    }

    /// Doudizhu is played on a per-turn timer only.
    #[cfg(feature = "doudizhu")]
    pub fn doudizhu() -> Descriptor {
        const SECOND: Millis = 1_000;
        let per_turn = |s: Millis| TimeControl::Qq {
            game: 0,
            per_move: 0,
            countdown: s * SECOND,
        };
        Descriptor::new::<qiyuan_doudizhu::Doudizhu, DoudizhuBots>(3)
            .label("斗地主", "Doudizhu", "♠")
            .record(RecordFormat::JSON)
            .hides_information()
            .trusteeship()
            .points_titles(qiyuan_doudizhu::titles::title)
            .presets(vec![
                TimePreset::new("quick", "快速 每手20秒", "Quick, 20 s a turn", per_turn(20)),
                TimePreset::new("match", "比赛 每手30秒", "Match, 30 s a turn", per_turn(30)),
                TimePreset::new("none", "不限时", "No clock", TimeControl::None),
            ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_validates_and_keys_are_unique() {
        for g in Games::builtin().all() {
            assert!(!g.presets.is_empty(), "{} has presets", g.name);
            for (i, p) in g.presets.iter().enumerate() {
                assert_eq!(p.time.validate(), Ok(()), "{} {}", g.name, p.key);
                assert!(
                    g.presets[..i].iter().all(|q| q.key != p.key),
                    "{} {} twice",
                    g.name,
                    p.key
                );
            }
            assert_eq!(g.default_time(), g.presets[0].time);
        }
    }

    #[test]
    fn every_entry_makes_a_table_of_its_seat_count() {
        for g in Games::builtin().all() {
            let table = g
                .new_table(TableConfig::casual(g.default_time()))
                .unwrap_or_else(|e| panic!("{}: {e}", g.name));
            assert_eq!(table.seats(), g.seats, "{}", g.name);
            assert_eq!(table.game_name(), g.name);
            assert_eq!(table.bot_levels(), g.bot_levels.as_slice(), "{}", g.name);
            assert!(
                table.bot_levels().iter().all(|l| l.key != "weird"),
                "a made-up level is no game's"
            );
            let keys: Vec<String> = table
                .bot_levels()
                .iter()
                .map(|l| l.key.to_string())
                .collect();
            assert_eq!(keys, g.bots, "{}", g.name);
        }
    }

    #[test]
    fn every_entry_names_itself_and_its_option_presets_are_its_games() {
        for g in Games::builtin().all() {
            assert!(!g.zh.is_empty() && !g.en.is_empty() && !g.icon.is_empty());
            assert_ne!(g.zh, g.name, "{} has a Chinese name", g.name);
            let json = serde_json::to_value(g).unwrap();
            assert_eq!(json["zh"], g.zh);
            assert_eq!(json["en"], g.en);
            assert_eq!(json["icon"], g.icon);
            let Some(options) = &g.option_presets else {
                assert!(json["option_presets"].is_null());
                continue;
            };
            assert!(!options.presets.is_empty(), "{}", g.name);
            for (i, p) in options.presets.iter().enumerate() {
                assert!(options.presets[..i].iter().all(|q| q.key != p.key));
                // The game's own rules take them.
                let study = g
                    .study(&p.options, &qiyuan_game::Setup::Standard, &[])
                    .unwrap_or_else(|e| panic!("{} {}: {}", g.name, p.key, e.message));
                assert!(study.position().to_move.is_some());
                assert_eq!(json["option_presets"]["presets"][i]["options"], p.options);
            }
            // A bad value is refused by the same rules: the check can fail.
            let mut bad = options.presets[0].options.clone();
            if let Some(o) = bad.as_object_mut() {
                for v in o.values_mut() {
                    *v = Value::String("?".into());
                }
            }
            assert!(g.study(&bad, &qiyuan_game::Setup::Standard, &[]).is_err());
        }
    }

    #[cfg(all(feature = "go", feature = "chess"))]
    #[test]
    fn go_offers_its_board_sizes_and_chess_none() {
        let games = Games::builtin();
        let go = games.find("go").unwrap();
        let presets = &go.option_presets.as_ref().unwrap().presets;
        let keys: Vec<&str> = presets.iter().map(|p| p.key).collect();
        assert_eq!(keys, ["9", "13", "19"]);
        let study = go
            .study(&presets[0].options, &qiyuan_game::Setup::Standard, &[])
            .unwrap();
        assert_eq!(study.position().view["size"], 9);
        assert!(games.find("chess").unwrap().option_presets.is_none());
        assert_eq!(games.find("go").unwrap().en, "Go");
    }

    #[cfg(all(feature = "chess", feature = "xiangqi", feature = "go"))]
    #[test]
    fn the_api_variant_is_told_without_its_rank_offset() {
        let games = Games::builtin();
        let json = |name: &str| serde_json::to_value(games.find(name).unwrap()).unwrap();
        assert_eq!(json("chess")["api_variant"]["key"], "standard");
        assert_eq!(json("xiangqi")["api_variant"]["key"], "xiangqi");
        assert!(json("xiangqi")["api_variant"].get("rank_offset").is_none());
        assert!(json("go")["api_variant"].is_null());
    }

    #[cfg(feature = "chess")]
    #[test]
    fn a_wrong_seat_count_is_refused() {
        let mut chess = Games::builtin().find("chess").unwrap().clone();
        chess.seats = 3;
        let err = chess
            .new_table(TableConfig::casual(chess.default_time()))
            .err()
            .expect("refused");
        assert!(err.contains("3 seats"), "{err}");
    }

    #[cfg(all(feature = "chess", feature = "xiangqi"))]
    #[test]
    fn chess_pools_are_split_by_speed() {
        let games = Games::builtin();
        assert_eq!(
            games.find("chess").unwrap().pool(Speed::Blitz),
            "chess:blitz"
        );
        assert_eq!(games.find("xiangqi").unwrap().pool(Speed::Blitz), "xiangqi");
    }

    #[cfg(all(feature = "go", feature = "doudizhu", feature = "xiangqi"))]
    #[test]
    fn the_quick_presets_are_the_games_own() {
        let games = Games::builtin();
        assert_eq!(
            games.find("go").unwrap().default_time(),
            TimeControl::byo_yomi(10, 3, 30)
        );
        assert_eq!(
            games.find("doudizhu").unwrap().default_time(),
            TimeControl::Qq {
                game: 0,
                per_move: 0,
                countdown: 20_000
            }
        );
        assert_eq!(
            games.find("xiangqi").unwrap().default_time(),
            TimeControl::qq(10, 1, 30)
        );
    }
}
