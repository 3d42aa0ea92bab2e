//! `qiyuan swiss pair FILE.trf` and `qiyuan swiss standings FILE.trf`.

use std::process::ExitCode;

use anyhow::Context;
use qiyuan_swiss::tiebreak::{self, Tiebreak};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Pair the next round by the FIDE Dutch system; prints the number of
    /// pairs, then `white black` by starting rank, `N 0` for the bye.
    Pair {
        /// A TRF-16 file (with XXR and XXC).
        file: std::path::PathBuf,
    },
    /// Print the standings with tiebreaks.
    Standings {
        /// A TRF-16 file.
        file: std::path::PathBuf,
        /// Tiebreaks in order: bh, bh-c1, bh-m1, sb, prog, de, win, won.
        #[arg(long, value_delimiter = ',', default_value = "bh,prog,de,win")]
        tiebreaks: Vec<String>,
    },
    /// Print the TRF-16 file of an event of the server's database.
    #[cfg(feature = "server")]
    Export {
        /// The event's id.
        event: String,
        #[command(flatten)]
        db: super::admin::Db,
    },
}

fn load(file: &std::path::Path) -> anyhow::Result<qiyuan_swiss::Tournament> {
    use std::io::Read;
    // One byte past the reader's bound is enough for it to say the file is too
    // large, without reading a huge file whole.
    let limit = qiyuan_swiss::trf::MAX_BYTES;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(limit as u64 + 1).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", file.display()))?;
    let text = if bytes.len() > limit {
        // Cut anywhere, perhaps inside a character: the size is what is refused.
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        String::from_utf8(bytes)
            .with_context(|| format!("cannot read {}: not UTF-8", file.display()))?
    };
    qiyuan_swiss::trf::parse(&text)
        .with_context(|| format!("{} is not a valid TRF file", file.display()))
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Pair { file } => {
            let t = load(&file)?;
            let pairing = qiyuan_swiss::pair(&t)
                .with_context(|| format!("cannot pair the next round of {}", file.display()))?;
            print!("{}", pairing.to_pairs_text());
        }
        #[cfg(feature = "server")]
        Command::Export { event, db } => {
            let url = db.url();
            let runtime =
                tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
            let text = runtime.block_on(async {
                let store = qiyuan_store::open(&url)
                    .await
                    .with_context(|| format!("cannot open the database {url}"))?;
                qiyuan_server::events::export_trf(&*store, &event).await
            })?;
            print!("{text}");
        }
        Command::Standings { file, tiebreaks } => {
            let t = load(&file)?;
            let order = tiebreaks
                .iter()
                .map(|s| s.parse::<Tiebreak>())
                .collect::<Result<Vec<_>, _>>()?;
            let rounds = t.paired_rounds();
            let table = tiebreak::standings(&t, rounds, &order);
            let mut header = format!("{:>5} {:>5}  {:<32} {:>5}", "Place", "No", "Name", "Pts");
            for tb in &order {
                header.push_str(&format!(" {:>6}", tb.code()));
            }
            println!("{header}");
            for s in table {
                let mut line = format!(
                    "{:>5} {:>5}  {:<32} {:>5}",
                    s.place,
                    s.start_rank,
                    s.name,
                    qiyuan_swiss::model::Points(s.score)
                );
                for (tb, v) in order.iter().zip(&s.tiebreaks) {
                    if tb.is_count() {
                        line.push_str(&format!(" {v:>6}"));
                    } else {
                        line.push_str(&format!(" {:>6}", format!("{}.{:02}", v / 100, v % 100)));
                    }
                }
                println!("{line}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
