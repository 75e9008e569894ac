//! End-to-end tests of the `pipeline` binary: outputs, determinism across threads, shards
//! and crashes, and the errors users see for bad input. One test binary (one link step).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pipeline"))
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn run_ok(args: &[&str]) -> Output {
    let out = bin().args(args).output().expect("binary runs");
    assert!(
        out.status.success(),
        "pipeline {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every file under `root` except manifests, by relative path.
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.file_name().unwrap() != "manifest.json" {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let mut bytes = std::fs::read(&path).unwrap();
                if rel.ends_with(".md") {
                    bytes = without_job_path(&bytes);
                }
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// A report with the job file's path in its header (``Written by `pipeline run PATH` ``)
/// replaced by `JOB`: the one part of an output that names where the job file was, so runs
/// of copies of one job file compare equal.
fn without_job_path(report: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(report.to_vec()).expect("reports are UTF-8");
    let marker = "Written by `pipeline run ";
    match text.find(marker) {
        Some(at) => {
            let start = at + marker.len();
            let end = start + text[start..].find('`').expect("the path is closed");
            format!("{}JOB{}", &text[..start], &text[end..]).into_bytes()
        }
        None => text.into_bytes(),
    }
}

fn assert_same_outputs(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    assert_eq!(
        fa.keys().collect::<Vec<_>>(),
        fb.keys().collect::<Vec<_>>(),
        "different file sets"
    );
    for (name, bytes) in &fa {
        assert!(bytes == &fb[name], "{name} differs between {a:?} and {b:?}");
    }
}

/// One uninterrupted, all-threads run of jobs/niuniu.toml that other tests compare with.
fn reference() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        run_ok(&[
            "run",
            repo("jobs/niuniu.toml").to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ]);
        dir
    })
}

#[test]
fn run_writes_tables_report_and_a_true_manifest() {
    let root = reference();
    let dir = root.join("tables/niuniu");
    for name in [
        "hands.parquet",
        "categories.parquet",
        "niuniu.bin",
        "manifest.json",
    ] {
        assert!(dir.join(name).is_file(), "{name} missing");
    }
    let report = std::fs::read_to_string(root.join("reports/niuniu.md")).unwrap();
    // The header names the job file as it was given on the command line.
    let given = repo("jobs/niuniu.toml");
    assert!(
        report.contains(&format!("Written by `pipeline run {}`", given.display())),
        "{report}"
    );
    assert!(root.join("reports/niuniu/win_probability.svg").is_file());
    assert!(root.join("reports/niuniu/banker_ev.svg").is_file());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["kind"], "niuniu.hands");
    assert_eq!(manifest["units"], 64);
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    for file in files {
        let bytes = std::fs::read(root.join(file["path"].as_str().unwrap())).unwrap();
        assert_eq!(file["bytes"], bytes.len() as u64);
        use sha2::Digest;
        let digest = sha2::Sha256::digest(&bytes);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(file["sha256"], hex.as_str());
    }
    let hands = files
        .iter()
        .find(|f| f["path"] == "tables/niuniu/hands.parquet")
        .unwrap();
    assert_eq!(hands["rows"], 2_598_960);
}

#[test]
fn one_thread_and_all_threads_write_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(&[
        "run",
        repo("jobs/niuniu.toml").to_str().unwrap(),
        "--out",
        dir.path().to_str().unwrap(),
        "--threads",
        "1",
        "--quiet",
    ]);
    assert_same_outputs(reference(), dir.path());
}

#[test]
fn shards_merge_into_the_single_run_byte_for_byte() {
    let work = tempfile::tempdir().unwrap();
    let job = repo("jobs/niuniu.toml");
    let mut part_dirs = Vec::new();
    for i in 0..3 {
        let out = work.path().join(format!("shard{i}"));
        run_ok(&[
            "run",
            job.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--shard",
            &format!("{i}/3"),
            "--quiet",
        ]);
        part_dirs.push(out.join("tables/niuniu/parts"));
    }
    // A missing part is refused with the shard it lacks.
    let merged = work.path().join("merged");
    let out = bin()
        .args([
            "merge",
            part_dirs[0].to_str().unwrap(),
            part_dirs[2].to_str().unwrap(),
        ])
        .args(["--out", merged.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("1 shard part(s) missing: 1/3"),
        "{}",
        stderr(&out)
    );

    let mut args = vec!["merge".to_string()];
    args.extend(part_dirs.iter().map(|p| p.display().to_string()));
    args.extend([
        "--out".into(),
        merged.display().to_string(),
        "--quiet".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_ok(&args);
    assert_same_outputs(reference(), &merged);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(merged.join("tables/niuniu/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["shards"], 3);
}

/// Runs `job` into `out` and lets the test hook abort it after `units` checkpointed units.
fn crash_after(job: &Path, out: &Path, units: u32) {
    let crashed = bin()
        .args([
            "run",
            job.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ])
        .args(["--threads", "1"])
        .env("PIPELINE_ABORT_AFTER_UNITS", units.to_string())
        .output()
        .unwrap();
    assert!(
        !crashed.status.success(),
        "the test hook should abort the run"
    );
    assert!(out.join("tables/niuniu/.checkpoint.bin").is_file());
}

fn copy_job(dir: &Path) -> PathBuf {
    let job = dir.join("niuniu.toml");
    std::fs::copy(repo("jobs/niuniu.toml"), &job).unwrap();
    job
}

#[test]
fn resume_after_a_crash_finishes_with_identical_outputs() {
    let work = tempfile::tempdir().unwrap();
    let job = copy_job(work.path());
    let out_dir = work.path().join("out");
    crash_after(&job, &out_dir, 20);
    assert!(!out_dir.join("tables/niuniu/hands.parquet").exists());

    // The plain command resumes: a rerun never discards saved work.
    let resumed = run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        stderr(&resumed).contains("resuming: 20 of ")
            && stderr(&resumed).contains("20 taken from earlier work"),
        "{}",
        stderr(&resumed)
    );
    assert!(!out_dir.join("tables/niuniu/.checkpoint.bin").exists());
    assert_same_outputs(reference(), &out_dir);
}

/// A three-handed push/fold job of four quick spots (8 classes, 2 and 4 bb, chip EV and
/// ICM): minutes of solving per spot on the full deck, milliseconds here.
const PUSHFOLD3_QUICK: &str = "[job]\nkind = \"holdem.pushfold3\"\nname = \"pf3\"\n[pushfold3]\nstack_min = 2\nstack_max = 4\nstack_step = 2\npayouts = [0.5, 0.3, 0.2]\nclasses = [\"AA\", \"KK\", \"QQ\", \"AKs\", \"AKo\", \"JTs\", \"T9s\", \"72o\"]\n";

#[test]
fn a_run_stopped_while_solving_resumes_with_the_next_spot() {
    let work = tempfile::tempdir().unwrap();
    let job = work.path().join("pf3.toml");
    std::fs::write(&job, PUSHFOLD3_QUICK).unwrap();
    let out_dir = work.path().join("out");
    let stash = out_dir.join("tables/pf3/.stash");
    // Runs the job into `out`, aborted by the test hook after `saves` solved spots.
    let crash = |out: &Path, saves: u32, flags: &[&str]| {
        let crashed = bin()
            .args(["run", job.to_str().unwrap(), "--out", out.to_str().unwrap()])
            .args(flags)
            .env("PIPELINE_ABORT_AFTER_STASHED", saves.to_string())
            .output()
            .unwrap();
        assert!(
            !crashed.status.success(),
            "the test hook should abort the run"
        );
        stderr(&crashed)
    };
    let kept = |stash: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(stash)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    crash(&out_dir, 2, &["--quiet"]);
    assert_eq!(kept(&stash), ["spot-0.bin", "spot-1.bin"]);
    assert!(!out_dir.join("tables/pf3/pushfold3.parquet").exists());
    // The rerun takes both solved spots: its first save is the third spot's.
    let said = crash(&out_dir, 1, &["--quiet"]);
    assert!(said.contains("resuming: the work saved in"), "{said}");
    assert_eq!(kept(&stash), ["spot-0.bin", "spot-1.bin", "spot-2.bin"]);
    // A damaged piece is said and solved again (the next save is its own).
    let damaged = stash.join("spot-1.bin");
    let mut bytes = std::fs::read(&damaged).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&damaged, &bytes).unwrap();
    let said = crash(&out_dir, 1, &["--quiet"]);
    assert!(
        said.contains("spot-1.bin is not a usable stash piece"),
        "{said}"
    );
    assert_eq!(kept(&stash), ["spot-0.bin", "spot-1.bin", "spot-2.bin"]);
    // Resumed to the end: the outputs of an uninterrupted run, and no stash left.
    let resumed = run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        stderr(&resumed).contains("resuming:"),
        "{}",
        stderr(&resumed)
    );
    assert!(!stash.exists());
    let reference = work.path().join("reference");
    run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        reference.to_str().unwrap(),
        "--quiet",
    ]);
    assert_same_outputs(&reference, &out_dir);
    // --restart discards a stash.
    let restarted = work.path().join("restarted");
    crash(&restarted, 1, &["--quiet"]);
    let out = run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        restarted.to_str().unwrap(),
        "--quiet",
        "--restart",
    ]);
    assert!(
        stderr(&out).contains("note: --restart: discarding the work saved in"),
        "{}",
        stderr(&out)
    );
    assert_same_outputs(&reference, &restarted);
}

#[test]
fn resume_with_a_changed_job_file_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let job = copy_job(work.path());
    let out_dir = work.path().join("out");
    crash_after(&job, &out_dir, 5);
    let text = std::fs::read_to_string(&job).unwrap() + "\n# edited\n";
    std::fs::write(&job, text).unwrap();
    let checkpoint = out_dir.join("tables/niuniu/.checkpoint.bin");
    for flags in [&["--quiet"][..], &["--resume", "--quiet"]] {
        let out = bin()
            .args([
                "run",
                job.to_str().unwrap(),
                "--out",
                out_dir.to_str().unwrap(),
            ])
            .args(flags)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr(&out).contains("different version") && stderr(&out).contains("--restart"),
            "{}",
            stderr(&out)
        );
        assert!(checkpoint.exists(), "a refused resume keeps the checkpoint");
    }
    // Starting over is explicit.
    let out = run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--restart",
    ]);
    assert!(
        stderr(&out).contains("--restart: discarding"),
        "{}",
        stderr(&out)
    );
    assert!(!checkpoint.exists());
}

#[test]
fn a_damaged_checkpoint_is_refused_with_how_to_start_over() {
    let work = tempfile::tempdir().unwrap();
    let job = copy_job(work.path());
    let out_dir = work.path().join("out");
    crash_after(&job, &out_dir, 5);
    let checkpoint = out_dir.join("tables/niuniu/.checkpoint.bin");
    let bytes = std::fs::read(&checkpoint).unwrap();
    // Truncated inside the header, inside the payload, and one byte flipped.
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    for damaged in [
        bytes[..10].to_vec(),
        bytes[..bytes.len() / 2].to_vec(),
        flipped,
    ] {
        std::fs::write(&checkpoint, &damaged).unwrap();
        let out = bin()
            .args(["run", job.to_str().unwrap(), "--quiet", "--out"])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot resume from") && stderr(&out).contains("--restart"),
            "{}",
            stderr(&out)
        );
        let check = bin()
            .args(["check", job.to_str().unwrap(), "--out"])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert!(
            String::from_utf8_lossy(&check.stdout).contains("checkpoint: unreadable"),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
    }
}

#[test]
fn bad_job_files_name_file_line_and_field() {
    let head = "[job]\nkind = \"niuniu.hands\"\nname = \"t\"\n";
    // (file text, expected "line:" prefix after the path, fragment of the message)
    let cases: Vec<(String, &str, &str)> = vec![
        ("[job\nkind = 1\n".into(), ":1:", "unclosed table"),
        (format!("{head}colour = 1\n"), ":4:", "colour"),
        ("[job]\nname = \"t\"\n".into(), ":1:", "kind"),
        ("[job]\nkind = \"niuniu.hands\"\n".into(), ":1:", "name"),
        (
            format!("{head}[rules]\nspecial_hands = [\"six_face\"]\n"),
            ":5:",
            "rules.special_hands",
        ),
        (
            format!("{head}[rules]\nspecial_hands = \"bomb\"\n"),
            ":5:",
            "rules.special_hands",
        ),
        (
            format!(
                "{head}[rules]\nspecial_hands = [\"bomb\", \"bomb\"]\npayout_table = \"common\"\n"
            ),
            ":5:",
            "listed twice",
        ),
        (
            format!("{head}[rules]\nfive_small_max_total = 30\n"),
            ":5:",
            "5..=20",
        ),
        (
            format!("{head}[rules]\nfive_small_max_total = -1\n"),
            ":5:",
            "rules.five_small_max_total",
        ),
        (
            format!("{head}[rules]\nbanker_wins_ties = \"yes\"\n"),
            ":5:",
            "rules.banker_wins_ties",
        ),
        (
            format!("{head}[rules]\npayout_table = \"casino\"\n"),
            ":5:",
            "rules.payout_table",
        ),
        (
            format!("{head}[rules]\nspecial_hands = [\"bomb\"]\n"),
            ":4:",
            "has no multiplier for it",
        ),
        (
            format!("{head}[rules.multipliers]\nbull_10 = 3\n"),
            ":5:",
            "bull_10",
        ),
        (
            format!("{head}[rules.multipliers]\nbull_bull = 0\n"),
            ":5:",
            "rules.multipliers.bull_bull`: 0 is out of range: use 1..=1000",
        ),
        (format!("{head}[rules]\ndecks = 6\n"), ":5:", "decks"),
        (
            format!("{head}[run]\nthreads = \"all\"\n"),
            ":5:",
            "run.threads",
        ),
        (format!("{head}[run]\nseed = 1.5\n"), ":5:", "run.seed"),
        (format!("{head}[run]\ncores = 4\n"), ":5:", "cores"),
        (
            "[job]\nkind = \"poker.everything\"\nname = \"t\"\n".into(),
            ":2:",
            "unknown job kind",
        ),
        (
            "[job]\nkind = \"niuniu.hands\"\nname = \"../escape\"\n".into(),
            ":3:",
            "job.name",
        ),
        (
            "[job]\nkind = \"niuniu.hands\"\nname = \"t\"\ndescription = 7\n".into(),
            ":4:",
            "job.description",
        ),
        (
            format!("{head}[rules]\nspecial_hands = [\"bomb\"]\n[rules]\n"),
            ":6:",
            "duplicate key",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (text, line, fragment)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&path, text).unwrap();
        let out = bin()
            .args(["run", path.to_str().unwrap(), "--quiet", "--out"])
            .arg(dir.path())
            .output()
            .unwrap();
        let err = stderr(&out);
        if std::env::var_os("SHOW_JOB_ERRORS").is_some() {
            eprintln!("case {i}: {err}");
        }
        assert_eq!(out.status.code(), Some(2), "case {i}: {err}");
        let located = format!("bad{i}.toml{line}");
        assert!(
            err.contains(&located),
            "case {i}: expected {located} in: {err}"
        );
        assert!(
            err.contains(fragment),
            "case {i}: expected {fragment:?} in: {err}"
        );
        assert!(!err.contains("panicked"), "case {i}: {err}");
    }
    let missing = bin()
        .args(["run", "no/such/job.toml", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no/such/job.toml: no such job file"));
}

fn table_path() -> PathBuf {
    reference().join("tables/niuniu/niuniu.bin")
}

#[test]
fn query_answers_from_the_table() {
    let out = run_ok(&[
        "query",
        "niuniu",
        "Ks Qh Jd Tc 9s",
        "--table",
        table_path().to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("category:        bull_9"), "{text}");
    assert!(text.contains("of 1533939 opponent hands"), "{text}");
    // Same hand, other order and notation.
    let again = run_ok(&[
        "query",
        "niuniu",
        "9♠ 10♣ J♦ Q♥ K♠",
        "--table",
        table_path().to_str().unwrap(),
    ]);
    let skip_hand_line = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(skip_hand_line(&out), skip_hand_line(&again));
}

#[test]
fn bad_card_text_is_a_clear_error() {
    for (hand, fragment) in [
        ("Zx Qh Jd Tc 9s", "not a rank"),
        ("Ks Ks Jd Tc 9s", "more than once"),
        ("Ks Qh Jd", "expected 5 cards, got 3"),
        ("Ks Qh Jd Tc 9", "needs a suit"),
    ] {
        let out = bin()
            .args(["query", "niuniu", hand, "--table"])
            .arg(table_path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{hand}");
        assert!(stderr(&out).contains(fragment), "{hand}: {}", stderr(&out));
    }
}

#[test]
fn damaged_tables_are_refused_without_panicking() {
    let good = std::fs::read(table_path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut flipped = good.clone();
    flipped[1000] ^= 1;
    // The first version this build does not read.
    let unknown = cardtables::format::FORMAT_VERSION + 1;
    let mut version = good.clone();
    version[8..10].copy_from_slice(&unknown.to_le_bytes());
    let mut old = good.clone();
    old[8] = 1;
    let unknown_text = format!("format version {unknown}");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() / 2].to_vec(), "truncated"),
        ("header only", good[..20].to_vec(), "shorter than"),
        ("flipped", flipped, "checksum mismatch"),
        ("version", version, &unknown_text),
        ("version 1", old, "regenerate it"),
        ("empty", Vec::new(), "shorter than"),
    ];
    for (name, bytes, fragment) in cases {
        let path = dir.path().join("t.bin");
        std::fs::write(&path, bytes).unwrap();
        let out = bin()
            .args(["query", "niuniu", "Ks Qh Jd Tc 9s", "--table"])
            .arg(&path)
            .output()
            .unwrap();
        let err = stderr(&out);
        // A file the user names that is not a good table is bad input.
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(fragment), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

#[test]
fn inspect_and_list_describe_what_is_there() {
    let out = run_ok(&["inspect", table_path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("game:        niuniu"), "{text}");
    assert!(text.contains("checksum:    ok"), "{text}");
    let parquet = reference().join("tables/niuniu/hands.parquet");
    let out = run_ok(&["inspect", parquet.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rows:        2598960"), "{text}");
    assert!(text.contains("win_probability"), "{text}");
    assert!(text.contains("pipeline.kind: niuniu.hands"), "{text}");

    let out = run_ok(&["list", "--jobs", repo("jobs").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("niuniu_extended.toml"), "{text}");
    assert!(text.contains("niuniu.hands"), "{text}");

    // The registry lists every kind once; every shipped job's kind is one of them.
    let out = run_ok(&["list", "--kinds"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let kinds: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for (i, k) in kinds.iter().enumerate() {
        assert!(!kinds[..i].contains(k), "{k} twice:\n{text}");
    }
    for entry in std::fs::read_dir(repo("jobs")).unwrap() {
        let job = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let kind = job
            .lines()
            .find_map(|l| l.strip_prefix("kind = \""))
            .and_then(|l| l.split('"').next())
            .expect("a kind line");
        assert!(kinds.contains(&kind), "{kind} not listed:\n{text}");
    }
    assert!(
        text.contains("(also [grid] [simulation] [analysis])"),
        "{text}"
    );
}

/// One run of jobs/zhajinhua.toml shared by the Zhajinhua tests.
fn zhajinhua_table() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        run_ok(&[
            "run",
            repo("jobs/zhajinhua.toml").to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ]);
        dir.join("tables/zhajinhua/zhajinhua.bin")
    })
}

/// `pipeline query zhajinhua "Ks Kh Qd"` against two opponents, pot 100, call 30, fold
/// 0.25, with `extra` flags: its standard output.
fn kkq_against_two(extra: &[&str]) -> String {
    let table = zhajinhua_table();
    let mut args = vec![
        "query",
        "zhajinhua",
        "Ks Kh Qd",
        "--opponents",
        "2",
        "--pot",
        "100",
        "--call",
        "30",
        "--fold",
        "0.25",
        "--table",
        table.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    String::from_utf8_lossy(&run_ok(&args).stdout).into_owned()
}

#[test]
fn zhajinhua_query_prices_every_action() {
    let text = kkq_against_two(&[]);
    // Exact two-opponent figures for K-K-Q (also in reports/zhajinhua.md).
    assert!(text.contains("win / tie / loss: 0.804446"), "{text}");
    assert!(text.contains("(exact)"), "{text}");
    // EV(call) = w·(P + C) − C with w = 0.804592…
    assert!(
        text.contains("call 30") && text.contains("+74.59"),
        "{text}"
    );
    assert!(text.contains("best: raise to 130"), "{text}");
    // Against two blind opponents (seen pays double), each caller of the raise to 130 adds
    // (130 − 30)/2: 0.25·100 + 0.75·(w·(100 + 130 + 2·50) − 130) = +126.636; blind callers
    // hold any hand, so the best raise along the fold curve is the cap.
    let text = kkq_against_two(&["--blind"]);
    assert!(text.contains("opponents:   blind"), "{text}");
    assert!(
        text.contains("raise to 130 (fold 25%; blind callers: any hand, equity 0.8046) +126.636"),
        "{text}"
    );
    assert!(
        text.contains("raise to 500.00, the cap") && text.contains("callers any hand"),
        "{text}"
    );
}

#[test]
fn zhajinhua_query_refuses_bad_questions() {
    let table = zhajinhua_table();
    for (args, code, fragment) in [
        (
            vec!["Ks Kh Qd", "--opponents", "6"],
            2,
            "answers for 1 to 2",
        ),
        (vec!["Ks Kh Qd", "--fold", "1.5"], 2, "probability"),
        (
            vec!["Ks Kh Qd", "--call", "30", "--raise", "10"],
            2,
            "at least the call",
        ),
        (vec!["Ks Kh", "--opponents", "1"], 2, "expected 3 cards"),
        (
            vec!["Ks Kh Qd", "--blind", "--seen-multiplier", "0.5"],
            2,
            "not a seen multiplier",
        ),
        // Negative numbers get the range message, not clap's "unexpected argument".
        (
            vec!["Ks Kh Qd", "--pot", "-5"],
            2,
            "is not a positive amount",
        ),
        (vec!["Ks Kh Qd", "--call", "-1"], 2, "is not an amount"),
        (
            vec!["Ks Kh Qd", "--fold", "-0.5"],
            2,
            "is not a probability",
        ),
    ] {
        let out = bin()
            .args(["query", "zhajinhua"])
            .args(&args)
            .arg("--table")
            .arg(table)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(fragment),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // A call above the default cap (5 × the pot) is no complaint about a --cap not given.
    let out = bin()
        .args([
            "query",
            "zhajinhua",
            "Ks Kh Qd",
            "--call",
            "1e12",
            "--table",
        ])
        .arg(table)
        .output()
        .unwrap();
    assert!(!stderr(&out).contains("--cap"), "{}", stderr(&out));
    // A table of another game is named as such.
    let out = bin()
        .args(["query", "zhajinhua", "Ks Kh Qd", "--table"])
        .arg(table_path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("this is a niuniu table, expected a zhajinhua table"));
}

/// Runs `job_text` on 1 and 2 threads and as two shards merged; asserts all three give
/// the same bytes and returns the one-thread output folder (in the returned temp dir).
fn threads_and_shards_agree(job_text: &str, name: &str) -> (tempfile::TempDir, PathBuf) {
    let work = tempfile::tempdir().unwrap();
    let job = work.path().join(format!("{name}.toml"));
    std::fs::write(&job, job_text).unwrap();
    let job = job.to_str().unwrap();
    let one = work.path().join("one");
    let two = work.path().join("two");
    run_ok(&[
        "run",
        job,
        "--out",
        one.to_str().unwrap(),
        "--threads",
        "1",
        "--quiet",
    ]);
    run_ok(&[
        "run",
        job,
        "--out",
        two.to_str().unwrap(),
        "--threads",
        "2",
        "--quiet",
    ]);
    assert_same_outputs(&one, &two);
    let mut parts = Vec::new();
    for i in 0..2 {
        let out = work.path().join(format!("shard{i}"));
        let shard = format!("{i}/2");
        run_ok(&[
            "run",
            job,
            "--out",
            out.to_str().unwrap(),
            "--shard",
            &shard,
            "--quiet",
        ]);
        parts.push(out.join(format!("tables/{name}/parts")));
    }
    let merged = work.path().join("merged");
    run_ok(&[
        "merge",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--quiet",
    ]);
    assert_same_outputs(&one, &merged);
    (work, one)
}

#[test]
fn monte_carlo_results_do_not_depend_on_threads_or_shards() {
    let (_work, one) = threads_and_shards_agree(
        "[job]\nkind = \"zhajinhua.multiway\"\nname = \"mw\"\n[run]\nseed = 7\ntarget_std_error = 0.05\n",
        "mw",
    );
    // The runtime answers for five opponents with a stated standard error.
    let out = run_ok(&[
        "query",
        "zhajinhua",
        "Ks Kh Qd",
        "--opponents",
        "5",
        "--table",
        one.join("tables/mw/zhajinhua.bin").to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(Monte Carlo, s.e."), "{text}");
    // Beyond two opponents the table has no calling ranges: no line may name one.
    assert!(!text.contains("callers top"), "{text}");
    assert!(text.contains("callers as random hands"), "{text}");
}

#[test]
fn a_second_writer_is_refused_and_stale_locks_are_taken_over() {
    let work = tempfile::tempdir().unwrap();
    let job = repo("jobs/zhajinhua_235.toml");
    let dir = work.path().join("tables/zhajinhua_235");
    std::fs::create_dir_all(&dir).unwrap();
    // A live owner (this test process, holding the OS lock): refused, outputs untouched.
    std::fs::write(dir.join(".lock"), "somehost:4242").unwrap();
    let held = std::fs::File::options()
        .read(true)
        .write(true)
        .open(dir.join(".lock"))
        .unwrap();
    held.lock().unwrap();
    let out = bin()
        .args(["run", job.to_str().unwrap(), "--quiet", "--out"])
        .arg(work.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("(somehost:4242) is writing") && stderr(&out).contains("is locked"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("hands.parquet").exists());
    // The owner is gone (its OS lock with it), here or on another host of a shared
    // filesystem, as after a preempted cluster task: the run takes the lock over.
    drop(held);
    for owner in ["another-node:2147483600", "somehost:4242"] {
        std::fs::write(dir.join(".lock"), owner).unwrap();
        let out = run_ok(&[
            "run",
            job.to_str().unwrap(),
            "--out",
            work.path().to_str().unwrap(),
        ]);
        assert!(
            stderr(&out).contains("taking over the lock") && stderr(&out).contains(owner),
            "{}",
            stderr(&out)
        );
        assert!(dir.join("hands.parquet").exists());
        assert!(!dir.join(".lock").exists());
    }
}

#[test]
fn slurm_array_variables_pick_the_shard() {
    let work = tempfile::tempdir().unwrap();
    let job = repo("jobs/zhajinhua_235.toml");
    let out = bin()
        .args(["run", job.to_str().unwrap(), "--out"])
        .arg(work.path())
        .env("SLURM_ARRAY_TASK_ID", "11")
        .env("SLURM_ARRAY_TASK_MIN", "10")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("shard 1/3 from SLURM_ARRAY_TASK_ID"));
    assert!(work
        .path()
        .join("tables/zhajinhua_235/parts/part-00001-of-00003.bin")
        .is_file());
    let out = bin()
        .args(["run", job.to_str().unwrap(), "--out"])
        .arg(work.path())
        .env("JOB_COMPLETION_INDEX", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--shards N"), "{}", stderr(&out));
}

/// A Monte Carlo job of a few seconds on one thread, for the interruption tests.
fn interruptible_job(dir: &Path) -> PathBuf {
    let job = dir.join("mw.toml");
    std::fs::write(
        &job,
        "[job]\nkind = \"zhajinhua.multiway\"\nname = \"mw\"\n[run]\nseed = 11\ntarget_std_error = 0.004\n",
    )
    .unwrap();
    job
}

/// Starts `pipeline ARGS` on one thread, waits until it has written its checkpoint, sends
/// `signal` (`INT` or `TERM`) and returns its exit code and stderr.
fn signal_mid_run(args: &[&str], checkpoint: &Path, signal: &str) -> (Option<i32>, String) {
    let child = bin()
        .args(args)
        .args(["--threads", "1"])
        .env("PIPELINE_CHECKPOINT_MS", "50")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let written = || {
        std::fs::metadata(checkpoint)
            .and_then(|m| m.modified())
            .ok()
    };
    let before = written();
    while written() == before && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    (out.status.code(), stderr(&out))
}

#[test]
fn sigint_then_sigterm_then_the_plain_command_gives_identical_bytes() {
    let work = tempfile::tempdir().unwrap();
    let job = interruptible_job(work.path());
    let job = job.to_str().unwrap();
    let reference = work.path().join("reference");
    run_ok(&["run", job, "--out", reference.to_str().unwrap(), "--quiet"]);

    let out = work.path().join("stopped");
    let args = ["run", job, "--out", out.to_str().unwrap(), "--quiet"];
    let checkpoint = out.join("tables/mw/.checkpoint.bin");
    let (code, text) = signal_mid_run(&args, &checkpoint, "INT");
    assert_eq!(code, Some(130), "{text}");
    let saved = text
        .lines()
        .find_map(|l| l.strip_prefix("interrupted: "))
        .unwrap_or_else(|| panic!("no interrupted line: {text}"));
    assert!(
        saved.ends_with("units saved; run the same command again to resume"),
        "{text}"
    );
    assert!(checkpoint.exists());
    assert!(
        !out.join("tables/mw/.lock").exists(),
        "the lock is released"
    );
    assert!(!out.join("tables/mw/hands.parquet").exists());

    let (code, text) = signal_mid_run(&args, &checkpoint, "TERM");
    assert_eq!(code, Some(143), "{text}");
    assert!(text.contains("interrupted: "), "{text}");

    let resumed = run_ok(&["run", job, "--out", out.to_str().unwrap()]);
    assert!(
        stderr(&resumed).contains("resuming: "),
        "{}",
        stderr(&resumed)
    );
    assert!(!checkpoint.exists());
    assert_same_outputs(&reference, &out);
}

#[test]
fn a_shard_stopped_by_sigterm_resumes_into_the_same_part() {
    let work = tempfile::tempdir().unwrap();
    let job = interruptible_job(work.path());
    let job = job.to_str().unwrap();
    let part = "tables/mw/parts/part-00001-of-00002.bin";
    let reference = work.path().join("reference");
    run_ok(&[
        "run",
        job,
        "--out",
        reference.to_str().unwrap(),
        "--quiet",
        "--shard",
        "1/2",
    ]);
    let out = work.path().join("stopped");
    let args = [
        "run",
        job,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--shard",
        "1/2",
    ];
    let checkpoint = out.join("tables/mw/.checkpoint-part-00001-of-00002.bin");
    let (code, text) = signal_mid_run(&args, &checkpoint, "TERM");
    assert_eq!(code, Some(143), "{text}");
    assert!(text.contains("interrupted: "), "{text}");
    assert!(!out.join(part).exists());
    let check = run_ok(&[
        "check",
        job,
        "--out",
        out.to_str().unwrap(),
        "--shard",
        "1/2",
    ]);
    assert!(
        String::from_utf8_lossy(&check.stdout).contains("units done (a run resumes from it"),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    run_ok(&args);
    assert_eq!(
        std::fs::read(out.join(part)).unwrap(),
        std::fs::read(reference.join(part)).unwrap()
    );
    assert!(!checkpoint.exists());
}

#[test]
fn kill_dash_nine_mid_run_then_resume_gives_identical_bytes() {
    let work = tempfile::tempdir().unwrap();
    let job = work.path().join("mw.toml");
    std::fs::write(
        &job,
        "[job]\nkind = \"zhajinhua.multiway\"\nname = \"mw\"\n[run]\nseed = 11\ntarget_std_error = 0.01\n",
    )
    .unwrap();
    let job = job.to_str().unwrap();
    let reference = work.path().join("reference");
    run_ok(&["run", job, "--out", reference.to_str().unwrap(), "--quiet"]);

    let out = work.path().join("killed");
    let mut child = bin()
        .args([
            "run",
            job,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--threads",
            "1",
        ])
        .env("PIPELINE_CHECKPOINT_MS", "50")
        .spawn()
        .unwrap();
    let checkpoint = out.join("tables/mw/.checkpoint.bin");
    let started = std::time::Instant::now();
    while !checkpoint.exists() && started.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "the run finished before it could be killed"
    );
    assert!(checkpoint.exists());
    assert!(!out.join("tables/mw/hands.parquet").exists());

    // `--resume` is still accepted (what a plain rerun does anyway).
    let resumed = run_ok(&["run", job, "--out", out.to_str().unwrap(), "--resume"]);
    assert!(
        stderr(&resumed).contains("taken from earlier work"),
        "{}",
        stderr(&resumed)
    );
    assert_same_outputs(&reference, &out);
}

#[test]
fn an_output_that_cannot_be_created_is_a_clear_error() {
    let work = tempfile::tempdir().unwrap();
    let blocker = work.path().join("file");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let out = bin()
        .args([
            "run",
            repo("jobs/zhajinhua_235.toml").to_str().unwrap(),
            "--quiet",
            "--out",
        ])
        .arg(&blocker)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is not a folder"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
}

#[test]
fn a_full_disk_leaves_no_partial_outputs() {
    // A 300 KiB tmpfs holds the small Zhajinhua tables but not hands.parquet. Mounting
    // needs root. Under CI (`CI=true`, root on a machine that allows it) a failed mount
    // fails the test; elsewhere (a developer without root) it is skipped with a note.
    let work = tempfile::tempdir().unwrap();
    let mount = work.path().join("tiny");
    std::fs::create_dir_all(&mount).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=300k", "tmpfs"])
        .arg(&mount)
        .output()
        .is_ok_and(|o| o.status.success());
    if !mounted {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but a tmpfs cannot be mounted: the full-disk test would check nothing"
        );
        eprintln!("skipped: cannot mount a tmpfs here (not root?)");
        return;
    }
    let out = bin()
        .args([
            "run",
            repo("jobs/zhajinhua_235.toml").to_str().unwrap(),
            "--quiet",
            "--out",
        ])
        .arg(&mount)
        .output()
        .unwrap();
    let mut left = Vec::new();
    let mut stack = vec![mount.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                left.push(path);
            }
        }
    }
    let _ = Command::new("umount").arg(&mount).status();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("No space left on device"),
        "{}",
        stderr(&out)
    );
    let left: Vec<_> = left.iter().filter(|p| !p.ends_with(".lock")).collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn stud_job_and_query() {
    let work = tempfile::tempdir().unwrap();
    // The shipped job with only the quick 28-card heads-up table.
    let text = std::fs::read_to_string(repo("jobs/showhand.toml")).unwrap();
    let quick: String = text
        .lines()
        .map(|l| {
            if l.starts_with("headsup_decks") {
                "headsup_decks = [28]"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let job = work.path().join("showhand.toml");
    std::fs::write(&job, quick).unwrap();
    run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        work.path().to_str().unwrap(),
        "--quiet",
    ]);
    for f in [
        "categories.parquet",
        "hit_probability.parquet",
        "break_even.parquet",
    ] {
        assert!(work.path().join("tables/showhand").join(f).is_file(), "{f}");
    }
    let report = std::fs::read_to_string(work.path().join("reports/showhand.md")).unwrap();
    assert!(
        report.contains("**11 outs of 44**"),
        "the article's example as the article runs it"
    );
    assert!(
        report.contains("**11 outs of 45**"),
        "the article's example done right"
    );

    // One card against one is 5.3e10 pairs of runouts: refused at once, not run for
    // minutes on one thread.
    let out = output_within_20s(&["query", "stud", "As", "2c"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("230300 × 230300 pairs of runouts"),
        "{}",
        stderr(&out)
    );

    let out = run_ok(&[
        "query",
        "stud",
        "As Ks Qs Js",
        "2c 2d",
        "--seen",
        "2h",
        "--to-come",
        "1",
        "--pot",
        "120",
        "--call",
        "40",
        "--implied",
        "80",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("exact over 595980 deals"), "{text}");
    // p = 0.4671 of a 120 + 80 implied pot for 40: EV(call) = 0.4671·200 − 0.5329·40.
    assert!(
        text.contains("+72.106") && text.contains("best: call 40"),
        "{text}"
    );
    assert!(text.contains("needs equity 0.1667 to call"), "{text}");
    // A flush draw against a made hand: nine outs, and the formula equals enumeration.
    let out = run_ok(&["query", "stud", "2s 5s 9s Js", "Ah Ad 7c 8d 3h"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("outs (9)"), "{text}");
    assert!(text.contains("win 0.2093"), "{text}");
    for (args, fragment) in [
        (vec!["As Ks", "As"], "appears twice"),
        (
            vec!["2s Ks", "Ah", "--deck", "32"],
            "not in the 32-card deck",
        ),
        (vec!["As Ks", "Ah", "--to-come", "2"], "five-card hand"),
        (vec!["As Kx", "Ah"], "needs a suit"),
        (
            vec!["As Ks", "Ah", "--raise", "5"],
            "must be at least the call",
        ),
    ] {
        let out = bin().args(["query", "stud"]).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(fragment),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn stud_headsup_table_is_symmetric_and_matches_the_engine() {
    let work = tempfile::tempdir().unwrap();
    let job = work.path().join("sh.toml");
    std::fs::write(
        &job,
        "[job]\nkind = \"stud.tables\"\nname = \"sh\"\n[rules]\nheadsup_decks = [28]\nflush_beats_full_house = true\n",
    )
    .unwrap();
    run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        work.path().to_str().unwrap(),
        "--quiet",
    ]);
    let table = cardtables::Stud::open(work.path().join("tables/sh/stud.bin")).unwrap();
    let cards = |t: &str| cardtables::parse_cards(t).unwrap();
    for (a, b) in [("As Ah", "Ks Qs"), ("9h 8h", "Tc Td"), ("Ac Kd", "Ah Kc")] {
        let ab = table.starting_hands(28, &cards(a), &cards(b)).unwrap();
        let ba = table.starting_hands(28, &cards(b), &cards(a)).unwrap();
        assert_eq!(
            (ab.wins, ab.ties, ab.losses),
            (ba.losses, ba.ties, ba.wins),
            "{a} vs {b}"
        );
        // Renaming suits changes nothing.
        let renamed = |t: &str| t.replace('s', "x").replace('h', "s").replace('x', "h");
        let r = table
            .starting_hands(28, &cards(&renamed(a)), &cards(&renamed(b)))
            .unwrap();
        assert_eq!((r.wins, r.ties), (ab.wins, ab.ties), "{a} vs {b} renamed");
    }
    // The query engine agrees with the table (both exact).
    let out = run_ok(&[
        "query",
        "stud",
        "As Ah",
        "Ks Qs",
        "--deck",
        "28",
        "--flush-beats-full-house",
    ]);
    let ab = table
        .starting_hands(28, &cards("As Ah"), &cards("Ks Qs"))
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("exact over {} deals", ab.deals)),
        "{text}"
    );
    assert!(
        text.contains(&format!("win {:.4}", ab.wins as f64 / ab.deals as f64)),
        "{text}"
    );
}

#[test]
fn holdem_preflop_job_and_query() {
    let work = tempfile::tempdir().unwrap();
    run_ok(&[
        "run",
        repo("jobs/holdem_preflop.toml").to_str().unwrap(),
        "--out",
        work.path().to_str().unwrap(),
        "--quiet",
    ]);
    let table = work.path().join("tables/holdem_preflop/holdem.bin");
    let q = |args: &[&str]| {
        let mut all = vec!["query", "holdem"];
        all.extend_from_slice(args);
        all.extend(["--table", table.to_str().unwrap()]);
        String::from_utf8_lossy(&run_ok(&all).stdout).into_owned()
    };
    // Published exact figures: AA 85.20 %, AKs 67.04 %, 72o 34.58 %.
    assert!(q(&["AA"]).contains("equity 0.8520 (exact)"));
    assert!(q(&["AKs"]).contains("equity 0.6704"));
    assert!(q(&["7d 2c"]).contains("72o vs 1 random hand"));
    assert!(q(&["2c 7h"]).contains("equity 0.3458"));
    let text = q(&[
        "AKs", "--pot", "100", "--call", "20", "--raise", "60", "--fold", "0.3",
    ]);
    assert!(text.contains("needs equity 0.1667"), "{text}");
    assert!(text.contains("best: raise to 60"), "{text}");
    let out = bin()
        .args(["query", "holdem", "AKx", "--table"])
        .arg(&table)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a starting hand"));
    // A class against two cards (either way round) is refused, not silently averaged,
    // before any table is opened.
    for (a, b) in [("AKs", "Qd Qc"), ("As Kd", "QQ")] {
        let out = bin()
            .args(["query", "holdem", a, b, "--table", "/nonexistent.bin"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{a} vs {b}");
        assert!(
            stderr(&out).contains("mix a class and two cards"),
            "{}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_optimal_split_job_adds_its_columns_and_shards_alike() {
    // Infinite shoes, so that the search takes a moment; shards and threads must agree.
    let (_work, one) = threads_and_shards_agree(
        "[job]\nkind = \"blackjack.strategy\"\nname = \"opt\"\n\
         [rules]\ndecks = \"infinite\"\nmax_split_hands = 2\n\
         [grid]\ndealer_hits_soft_17 = [false, true]\n\
         [analysis]\noptimal_split = true\n[simulation]\nrounds = 0\n",
        "opt",
    );
    let hands = one.join("tables/opt/hands.parquet");
    let out = run_ok(&["inspect", hands.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ev_split_optimal") && text.contains("optimal_split_gain"),
        "{text}"
    );
    let summary = one.join("tables/opt/summary.parquet");
    let out = run_ok(&["inspect", summary.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("house_edge_optimal_split"));
    let report = std::fs::read_to_string(one.join("reports/opt.md")).unwrap();
    assert!(
        report.contains("## The optimal split (two hands)"),
        "{report}"
    );
}

#[test]
fn blackjack_grid_is_deterministic_and_the_runtime_answers() {
    let (_work, one) = threads_and_shards_agree(
        "[job]\nkind = \"blackjack.strategy\"\nname = \"bj\"\n\
         [grid]\ndecks = [6, \"infinite\"]\nsurrender = [\"none\", \"late\"]\n\
         [simulation]\nrounds = 200_000\ncompare_seed_strategy = true\n[run]\nseed = 11\n",
        "bj",
    );
    for file in ["dealer", "hands", "strategy", "summary"] {
        assert!(one.join(format!("tables/bj/{file}.parquet")).exists());
    }
    let report = std::fs::read_to_string(one.join("reports/bj.md")).unwrap();
    assert!(report.contains("`6d-s17-das-ls`") && report.contains("chart-inf-s17-das.svg"));
    let table = one.join("tables/bj/blackjack.bin");
    let table = table.to_str().unwrap();
    let query = |args: &[&str]| {
        let mut all = vec!["query", "blackjack"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--table", table]);
        String::from_utf8_lossy(&run_ok(&all).stdout).into_owned()
    };
    let text = query(&["8 8", "T", "--rules", "6d-s17-das"]);
    assert!(
        text.contains("split") && text.contains("best: split"),
        "{text}"
    );
    assert!(!text.contains("surrender"), "no surrender in this rule set");
    let text = query(&["T 6", "T", "--rules", "6d-s17-das-ls"]);
    assert!(
        text.contains("surrender  -0.5000") && text.contains("best: surrender"),
        "{text}"
    );
    let text = query(&["5 4 3", "2", "--rules", "inf-s17-das"]);
    assert!(
        text.contains("best: hit") && text.contains("chart"),
        "{text}"
    );
    let text = query(&["8 8", "T", "--rules", "list"]);
    assert_eq!(text.lines().count(), 4, "{text}");
    // One card grammar: suits may be given (and are ignored), 10 is T, J/Q/K count ten.
    let plain = query(&["8 8", "T", "--rules", "6d-s17-das"]);
    assert_eq!(query(&["8s 8h", "Td", "--rules", "6d-s17-das"]), plain);
    assert_eq!(query(&["8,8", "10", "--rules", "6d-s17-das"]), plain);
    let jack = query(&["8 8", "J", "--rules", "6d-s17-das"]);
    assert_eq!(jack.replace(" J ", " T "), plain);
    // An ace upcard may be written 11 or 1, the value the tables' upcard column gives it.
    let ace = query(&["8 8", "A", "--rules", "6d-s17-das"]);
    assert_eq!(query(&["8 8", "11", "--rules", "6d-s17-das"]), ace);
    assert_eq!(query(&["8 8", "1", "--rules", "6d-s17-das"]), ace);
    // A hand is labelled by its chart row: a pair is a pair, two tens too.
    assert!(plain.starts_with("8 8 (pair 8) against T"), "{plain}");
    assert!(query(&["T K", "9"]).starts_with("T K (pair T) against 9"));
    assert!(query(&["T 6", "9"]).starts_with("T 6 (hard 16) against 9"));
    assert!(query(&["A 7", "9"]).starts_with("A 7 (soft 18) against 9"));
    // A chart row may be named instead of dealt: two cards of the row stand for it.
    for (row, cards) in [
        ("16", "T 6"),
        ("hard 16", "T 6"),
        ("Hard 5", "2 3"),
        ("11", "2 9"),
        ("soft 18", "A 7"),
        ("pair 8", "8 8"),
        ("pair A", "A A"),
    ] {
        assert_eq!(
            query(&[row, "T", "--rules", "6d-s17-das"]),
            query(&[cards, "T", "--rules", "6d-s17-das"]),
            "{row}"
        );
    }
    // Bad questions are usage errors (exit 2) that say what is allowed.
    for (args, says) in [
        (vec!["8 X", "T"], "'X' at position 3 is not a rank"),
        (
            vec!["8 8", "12"],
            "the upcard \"12\": '1' at position 1 is not a rank",
        ),
        (vec!["A 1", "T"], "'1' at position 3 is not a rank"),
        (vec!["8 8", "T 9"], "one rank for the upcard"),
        (
            vec!["8 8", "T", "--rules", "7d-s17-das"],
            "no rule set \"7d-s17-das\"",
        ),
        (vec!["T T 5", "9"], "already bust"),
        (
            vec!["20", "9"],
            "hard 20: a hard row of two cards that are not a pair is 5 to 19",
        ),
        (vec!["soft 12", "9"], "soft 13 to soft 20"),
        (
            vec!["pair Z", "9"],
            "pair Z: 'Z' at position 1 is not a rank",
        ),
        (vec!["hard x", "9"], "or a chart row: \"16\""),
    ] {
        let mut all = vec!["query", "blackjack"];
        all.extend_from_slice(&args);
        all.extend_from_slice(&["--table", table]);
        let out = bin().args(&all).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn shard_options_that_cannot_work_are_refused() {
    let job = repo("jobs/niuniu.toml");
    let work = tempfile::tempdir().unwrap();
    // --shards completes a scheduler's index; with none set it would do nothing.
    let out = bin()
        .args(["run", job.to_str().unwrap(), "--shards", "4", "--out"])
        .arg(work.path())
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--shard I/N"), "{}", stderr(&out));
    // More shards than the job has units (niuniu.hands has 64).
    let out = bin()
        .args([
            "run",
            job.to_str().unwrap(),
            "--shard",
            "0/4294967295",
            "--out",
        ])
        .arg(work.path())
        .output()
        .unwrap();
    // Bad input, as `check` says (exit 2), not a failure while running.
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("at most 64 shards"),
        "{}",
        stderr(&out)
    );
    // Thread counts are bounded, negative ones named as such.
    for bad in ["-1", "100000"] {
        let out = bin()
            .args(["run", job.to_str().unwrap(), "--threads", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("not a thread count"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn a_run_removes_the_temporary_files_of_a_run_that_died() {
    let work = tempfile::tempdir().unwrap();
    let tables = work.path().join("tables/zhajinhua_235");
    let reports = work.path().join("reports");
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::create_dir_all(reports.join("zhajinhua_235")).unwrap();
    // What `kill -9` during the write phase or a checkpoint leaves behind, and a shard's
    // checkpoint temp that a shard run's own lock covers (kept).
    let stale = [
        tables.join(".hands.parquet.tmp-4000001"),
        tables.join("..checkpoint.bin.tmp-4000002"),
        reports.join(".zhajinhua_235.md.tmp-4000003"),
        reports.join("zhajinhua_235/.raise_curve.svg.tmp-4000004"),
    ];
    let kept = [
        tables.join("..checkpoint-part-00000-of-00002.bin.tmp-4000005"),
        reports.join(".other.md.tmp-4000006"),
    ];
    for path in stale.iter().chain(&kept) {
        std::fs::write(path, b"partial").unwrap();
    }
    run_ok(&[
        "run",
        repo("jobs/zhajinhua_235.toml").to_str().unwrap(),
        "--out",
        work.path().to_str().unwrap(),
        "--quiet",
    ]);
    for path in &stale {
        assert!(!path.exists(), "{} left behind", path.display());
    }
    for path in &kept {
        assert!(path.exists(), "{} removed", path.display());
    }
}

#[test]
fn check_validates_without_computing() {
    let out = run_ok(&["check", repo("jobs/blackjack.toml").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("96 rule sets") && text.contains("units:    4896"),
        "{text}"
    );
    // A bad job file is exit 2 at its field, like `run`.
    let work = tempfile::tempdir().unwrap();
    let bad = work.path().join("bad.toml");
    std::fs::write(
        &bad,
        "[job]\nkind = \"niuniu.hands\"\nname = \"n\"\n[grid]\ndecks = [1]\n",
    )
    .unwrap();
    let out = bin().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("bad.toml:4:2: field `grid`"),
        "{}",
        stderr(&out)
    );
    // An output root under a file cannot be written.
    let blocker = work.path().join("file");
    std::fs::write(&blocker, b"x").unwrap();
    let out = bin()
        .args(["check", repo("jobs/niuniu.toml").to_str().unwrap(), "--out"])
        .arg(blocker.join("out"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("is not a folder"), "{}", stderr(&out));
}

/// A small deterministic generator (xorshift64*) for the mutation test.
struct Mutator(u64);

impl Mutator {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1) as u64) as usize
    }

    /// One random edit of a job file's text: delete, duplicate or replace a span, or put
    /// a hostile value where a value was.
    fn mutate(&mut self, text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let at = self.below(chars.len());
        let len = 1 + self.below(12);
        let end = (at + len).min(chars.len());
        let pieces = [
            "",
            "\n",
            "[",
            "]",
            "=",
            "\"",
            "0",
            "-1",
            "1e309",
            "99999999999999999999",
            "nan",
            "\"infinite\"",
            "[grid]\n",
            "[run]\n",
            "threads = 100000\n",
            "[[job]]\n",
            "{",
            "}",
            ",",
            "é",
            "\u{0}",
        ];
        let mut out: String = chars[..at].iter().collect();
        match self.below(4) {
            0 => {}
            1 => out.extend(chars[at..end].iter().chain(&chars[at..end])),
            _ => out.push_str(pieces[self.below(pieces.len())]),
        }
        out.extend(&chars[end..]);
        out
    }
}

#[test]
fn random_mutations_of_every_shipped_job_are_checked_without_a_panic() {
    let work = tempfile::tempdir().unwrap();
    let mut rng = Mutator(0x5eed_cafe);
    let mut refused = 0;
    let mut files: Vec<_> = std::fs::read_dir(repo("jobs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for job in files {
        let text = std::fs::read_to_string(&job).unwrap();
        for k in 0..24 {
            let mutated = (0..1 + k % 3).fold(text.clone(), |t, _| rng.mutate(&t));
            let path = work.path().join("mutated.toml");
            std::fs::write(&path, &mutated).unwrap();
            let out = bin()
                .arg("check")
                .arg(&path)
                .args(["--out"])
                .arg(work.path())
                .output()
                .unwrap();
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(2),
                "{} mutation {k}: exit {code:?}\n{}\n--- job file ---\n{mutated}",
                job.display(),
                stderr(&out)
            );
            assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
            refused += usize::from(code == Some(2));
        }
    }
    // Most mutations break something; the test is worthless if none did.
    assert!(refused > 100, "only {refused} mutations were refused");
}

#[test]
fn a_forged_part_that_passes_its_checksum_is_refused_not_trusted() {
    use pipeline::engine::PartFile;
    use pipeline::games::niuniu::opponents::Counts;
    let (work, path) = one_part("jobs/niuniu.toml", "niuniu");
    let mut part = PartFile::load(&path).unwrap();
    // Unit 3 now decodes (a valid, resealed file) but holds no multisets at all.
    part.units[3].1 = cardtables::format::encode(&Vec::<Counts>::new()).unwrap();
    part.save(&path).unwrap();
    let out = merge_part(&path, &work.path().join("merged"));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("stored result of unit 3 is not one this job produces"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// Runs `job` as the single shard 0/1 into a temp folder; returns the folder and the
/// part's path, for tests that forge parts.
fn one_part(job: &str, name: &str) -> (tempfile::TempDir, PathBuf) {
    let work = tempfile::tempdir().unwrap();
    run_ok(&[
        "run",
        repo(job).to_str().unwrap(),
        "--out",
        work.path().to_str().unwrap(),
        "--shard",
        "0/1",
        "--quiet",
    ]);
    let path = work
        .path()
        .join(format!("tables/{name}/parts/part-00000-of-00001.bin"));
    (work, path)
}

/// `pipeline merge` of the folder holding `part` into `out`.
fn merge_part(part: &Path, out: &Path) -> Output {
    bin()
        .arg("merge")
        .arg(part.parent().unwrap())
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .output()
        .unwrap()
}

#[test]
fn swapped_unit_results_are_refused_naming_where_they_came_from() {
    use pipeline::engine::PartFile;
    let (work, path) = one_part("jobs/niuniu.toml", "niuniu");
    let mut part = PartFile::load(&path).unwrap();
    // Two units' results swapped: each well formed, neither where its unit belongs.
    let first = part.units[0].1.clone();
    part.units[0].1 = part.units[5].1.clone();
    part.units[5].1 = first;
    part.save(&path).unwrap();
    let out = merge_part(&path, &work.path().join("merged"));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("came from shard parts")
            && stderr(&out).contains("run the shards again"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

#[test]
fn forged_part_headers_and_job_texts_are_refused_by_name() {
    use pipeline::engine::PartFile;
    let (work, path) = one_part("jobs/zhajinhua_235.toml", "zhajinhua_235");
    let good = PartFile::load(&path).unwrap();
    let forgeries: Vec<(PartFile, &str)> = vec![
        (
            // Other rules under the same units: tables labelled with rules never run.
            PartFile {
                job_text: good.job_text.replace("[rules]", "[rules]\n# forged"),
                ..good.clone()
            },
            "does not match the job hash",
        ),
        (
            PartFile {
                job_hash: "ab".into(),
                ..good.clone()
            },
            "does not match the job hash",
        ),
        (
            PartFile {
                shards: 0,
                ..good.clone()
            },
            "is not a valid part: it says shard 0 of 0",
        ),
        (
            PartFile {
                shard: 7,
                shards: 3,
                ..good.clone()
            },
            "is not a valid part: it says shard 7 of 3",
        ),
    ];
    for (forged, expect) in forgeries {
        forged.save(&path).unwrap();
        let out = merge_part(&path, &work.path().join("merged"));
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains(expect), "{expect}: {}", stderr(&out));
        assert!(!work.path().join("merged/tables").exists());
    }
}

/// Runs `pipeline ARGS`, failing the test instead of hanging if it takes over 20 s.
fn output_within_20s(args: &[&str]) -> Output {
    let mut child = bin()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() > 20 {
            child.kill().unwrap();
            panic!("pipeline {args:?} hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn pipes_and_folders_are_refused_as_job_table_and_inspected_files() {
    let work = tempfile::tempdir().unwrap();
    let fifo = work.path().join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (fifo, folder) = (fifo.to_str().unwrap(), work.path().to_str().unwrap());
    for target in [fifo, folder] {
        for (args, code) in [
            (vec!["run", target, "--out", folder], 2),
            (vec!["check", target], 2),
            (vec!["inspect", target], 1),
            (
                vec!["query", "niuniu", "Ks Qh Jd Tc 9s", "--table", target],
                2,
            ),
        ] {
            let out = output_within_20s(&args);
            assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
            assert!(
                stderr(&out).contains("not a regular file"),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn check_estimates_the_run_and_warns_of_settings_that_are_probably_not_meant() {
    let work = tempfile::tempdir().unwrap();
    let check = |text: &str| {
        let job = work.path().join("job.toml");
        std::fs::write(&job, text).unwrap();
        let out = run_ok(&["check", job.to_str().unwrap(), "--threads", "2"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // 10^13 counted rounds: about 12 CPU-days, 6 days on two threads.
    let said = check(
        "[job]\nkind = \"blackjack.counter\"\nname = \"c\"\n[betting]\nrounds = 10_000_000_000_000\n",
    );
    assert!(
        said.contains("estimate: about 12.2 days of CPU, 6.1 days on 2 threads"),
        "{said}"
    );
    assert!(
        said.contains("warning:  this run would take about 6.1 days"),
        "{said}"
    );
    // A Monte Carlo target no cell reaches within its trial budget.
    let said = check(
        "[job]\nkind = \"zhajinhua.multiway\"\nname = \"m\"\n[run]\ntarget_std_error = 1e-12\n",
    );
    assert!(
        said.contains("warning:  target_std_error = 1e-12 needs about 2.5e23 trials"),
        "{said}"
    );
    // The shipped jobs are estimated and none is flagged.
    for job in [
        "jobs/blackjack.toml",
        "jobs/blackjack_indices.toml",
        "jobs/zhajinhua_multiway.toml",
    ] {
        let out = run_ok(&["check", repo(job).to_str().unwrap(), "--threads", "2"]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(!said.contains("warning:"), "{job}: {said}");
    }
    // Three-handed push/fold: the three-way counts, then each spot's solve (62 spots of
    // the 818,805 triples of all 169 classes).
    let out = run_ok(&[
        "check",
        repo("jobs/holdem_pushfold3.toml").to_str().unwrap(),
        "--threads",
        "2",
    ]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("estimate: about 59 min of CPU, 29 min on 2 threads"),
        "{said}"
    );
    // With the counts read from a table, the solves alone: four spots (one equal stack and
    // one seating, each in chip EV and ICM), 2 CPU-minutes by the model.
    let counts = work.path().join("threeway.parquet");
    std::fs::write(&counts, "").unwrap();
    let said = check(&format!(
        "[job]\nkind = \"holdem.pushfold3\"\nname = \"p\"\n[pushfold3]\nstack_min = 10\nstack_max = 10\npayouts = [0.5, 0.3, 0.2]\nspots = [[10, 15, 20]]\nthreeway = {:?}\n",
        counts.to_str().unwrap()
    ));
    assert!(
        said.contains("estimate: about 2 min of CPU, 56 s on 2 threads"),
        "{said}"
    );
    // One equal stack in chip EV: one solve on all 169 classes (818,805 triples, 28 s by
    // the model); on 168 classes the report's check solves the forced-fold game too, two
    // solves of the 804,440 triples left (55 s).
    let ranks = "AKQJT98765432".as_bytes();
    let mut names = Vec::new();
    for (i, &a) in ranks.iter().enumerate() {
        for (j, &b) in ranks.iter().enumerate() {
            let (a, b) = (a as char, b as char);
            names.push(match i.cmp(&j) {
                std::cmp::Ordering::Equal => format!("\"{a}{b}\""),
                std::cmp::Ordering::Less => format!("\"{a}{b}s\""),
                std::cmp::Ordering::Greater => format!("\"{b}{a}o\""),
            });
        }
    }
    assert_eq!(names.len(), 169);
    for (classes, estimate) in [
        (
            names.len(),
            "estimate: about 28 s of CPU, 14 s on 2 threads",
        ),
        (
            names.len() - 1,
            "estimate: about 55 s of CPU, 27 s on 2 threads",
        ),
    ] {
        let said = check(&format!(
            "[job]\nkind = \"holdem.pushfold3\"\nname = \"p\"\n[pushfold3]\nstack_min = 10\nstack_max = 10\nclasses = [{}]\nthreeway = {:?}\n",
            names[..classes].join(", "),
            counts.to_str().unwrap()
        ));
        assert!(said.contains(estimate), "{classes} classes: {said}");
    }
    let out = run_ok(&[
        "check",
        repo("jobs/blackjack.toml").to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("estimate: about 67 min of CPU, 33 min on 2 threads"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_new_output_set_leaves_no_file_of_the_old_one() {
    let work = tempfile::tempdir().unwrap();
    let job = work.path().join("x.toml");
    let out = work.path().to_str().unwrap();
    // The same output name, first for a two-rule-set blackjack grid, then for one rule
    // set, then for another game: each run's folders hold its own files only.
    let blackjack = |decks: &str| {
        format!(
            "[job]\nkind = \"blackjack.strategy\"\nname = \"x\"\n[grid]\ndecks = {decks}\n[simulation]\nrounds = 0\n"
        )
    };
    std::fs::write(&job, blackjack("[1, 2]")).unwrap();
    run_ok(&["run", job.to_str().unwrap(), "--out", out, "--quiet"]);
    let charts = work.path().join("reports/x");
    assert!(charts.join("chart-1d-s17-das.svg").is_file());
    assert!(charts.join("chart-2d-s17-das.svg").is_file());
    std::fs::write(&job, blackjack("[1]")).unwrap();
    run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        out,
        "--quiet",
        "--restart",
    ]);
    assert!(charts.join("chart-1d-s17-das.svg").is_file());
    assert!(
        !charts.join("chart-2d-s17-das.svg").exists(),
        "a dropped rule set's chart stays"
    );
    std::fs::write(&job, "[job]\nkind = \"zhajinhua.hands\"\nname = \"x\"\n").unwrap();
    run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        out,
        "--quiet",
        "--restart",
    ]);
    let tables = work.path().join("tables/x");
    assert!(tables.join("zhajinhua.bin").is_file());
    for gone in [
        "blackjack.bin",
        "dealer.parquet",
        "strategy.parquet",
        "summary.parquet",
    ] {
        assert!(!tables.join(gone).exists(), "{gone} of the old set stays");
    }
    assert!(!charts.join("chart-1d-s17-das.svg").exists());
    let stale = bin()
        .args(["query", "blackjack", "T 6", "T", "--table"])
        .arg(tables.join("blackjack.bin"))
        .output()
        .unwrap();
    assert!(!stale.status.success(), "a stale table still answers");
}

#[test]
fn check_refuses_every_output_place_that_run_would_fail_on() {
    let work = tempfile::tempdir().unwrap();
    let job = repo("jobs/zhajinhua_235.toml");
    let dangling = work.path().join("dangling");
    std::os::unix::fs::symlink(work.path().join("nowhere"), &dangling).unwrap();
    let folder_report = work.path().join("folder_report");
    std::fs::create_dir_all(folder_report.join("reports/zhajinhua_235.md")).unwrap();
    let file_tables = work.path().join("file_tables");
    std::fs::create_dir_all(file_tables.join("tables")).unwrap();
    std::fs::write(file_tables.join("tables/zhajinhua_235"), b"x").unwrap();
    for (out, expect) in [
        (&dangling, "which does not exist"),
        (&folder_report, "a folder is in the way"),
        (&file_tables, "a file is in the way"),
    ] {
        for command in ["check", "run"] {
            let got = bin()
                .args([command, job.to_str().unwrap(), "--out"])
                .arg(out)
                .output()
                .unwrap();
            assert_eq!(
                got.status.code(),
                Some(1),
                "{command} {out:?}: {}",
                stderr(&got)
            );
            assert!(
                stderr(&got).contains(expect),
                "{command} {out:?}: {}",
                stderr(&got)
            );
        }
    }
}

/// The regression corpus: every job file in `tests/bad_jobs/` names, on its first line
/// (`# expect: ...`), a fragment of the one message `pipeline check` must give for it.
#[test]
fn every_bad_job_in_the_corpus_gets_its_message() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo("tests/bad_jobs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 19, "the corpus lost files: {}", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{} has no `# expect:` line", file.display()));
        let out = bin().arg("check").arg(&file).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}: {}",
            file.display(),
            stderr(&out)
        );
        assert!(
            stderr(&out).contains(expect),
            "{}: expected {expect:?}, got {}",
            file.display(),
            stderr(&out)
        );
        assert!(
            out.stdout.is_empty(),
            "{} printed to stdout",
            file.display()
        );
    }
}

/// The output set is switched as one: a run killed after any number of renames leaves a
/// journal; until it is finished `query` refuses the half-switched tables and `check`
/// says so, and the next run finishes the switch (to exactly the killed run's outputs)
/// before it computes anything.
#[test]
fn a_switch_killed_after_any_rename_is_finished_by_the_next_run() {
    let work = tempfile::tempdir().unwrap();
    let old_job = work.path().join("old.toml");
    let new_job = work.path().join("new.toml");
    let text = std::fs::read_to_string(repo("jobs/zhajinhua.toml")).unwrap();
    std::fs::write(&old_job, &text).unwrap();
    // Another job hash: every Parquet file's metadata differs from the old set's.
    std::fs::write(&new_job, format!("{text}\n# the new version\n")).unwrap();
    let run = |job: &Path, out: &Path| {
        let mut command = bin();
        command
            .args(["run", job.to_str().unwrap(), "--out", out.to_str().unwrap()])
            .args(["--quiet", "--threads", "1"]);
        command
    };
    let expected = work.path().join("expected");
    assert!(run(&new_job, &expected).output().unwrap().status.success());
    let manifest_of = |out: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(out.join("tables/zhajinhua/manifest.json")).unwrap())
            .unwrap()
    };
    // Every file the switch moves: the manifest's files, the charts and the manifest.
    let moves = manifest_of(&expected)["files"].as_array().unwrap().len()
        + std::fs::read_dir(expected.join("reports/zhajinhua"))
            .unwrap()
            .count()
        + 1;
    // Five Parquet files, the runtime table and the report; two charts; the manifest.
    assert_eq!(moves, 10);
    let journal = "tables/zhajinhua/.switch.json";
    for k in 0..=moves {
        let out = work.path().join(format!("k{k}"));
        assert!(run(&old_job, &out).output().unwrap().status.success());
        let killed = run(&new_job, &out)
            .env("PIPELINE_ABORT_AFTER_RENAMES", k.to_string())
            .output()
            .unwrap();
        assert!(
            !killed.status.success(),
            "the hook aborts after {k} renames"
        );
        assert!(out.join(journal).is_file(), "k = {k}");

        let query = bin()
            .args(["query", "zhajinhua", "Ks Kh Qd", "--table"])
            .arg(out.join("tables/zhajinhua/zhajinhua.bin"))
            .output()
            .unwrap();
        assert!(!query.status.success(), "k = {k}");
        assert!(query.stdout.is_empty());
        assert!(
            stderr(&query).contains("not a complete output set"),
            "{}",
            stderr(&query)
        );
        let check = bin()
            .args([
                "check",
                new_job.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&check.stdout);
        assert!(said.contains("switching its outputs into place"), "{said}");

        // The next run finishes the switch first; it is then killed at its first
        // checkpoint, so what is on disk is the finished switch alone. (`--restart`: the
        // killed run saved its units before writing, and a plain run would resume them
        // all and compute nothing to be killed in.)
        let next = run(&new_job, &out)
            .arg("--restart")
            .env("PIPELINE_ABORT_AFTER_UNITS", "1")
            .output()
            .unwrap();
        assert!(!next.status.success());
        assert!(
            stderr(&next).contains("finished switching the outputs of an interrupted run"),
            "{}",
            stderr(&next)
        );
        assert!(!out.join(journal).exists());
        // What the killed next run left (its lock and checkpoint) is not the set's.
        std::fs::remove_file(out.join("tables/zhajinhua/.checkpoint.bin")).unwrap();
        std::fs::remove_file(out.join("tables/zhajinhua/.lock")).unwrap();
        assert_same_outputs(&expected, &out);
        let manifest = manifest_of(&out);
        assert_eq!(manifest["job_sha256"], manifest_of(&expected)["job_sha256"]);
        for record in manifest["files"].as_array().unwrap() {
            let bytes = std::fs::read(out.join(record["path"].as_str().unwrap())).unwrap();
            assert_eq!(record["bytes"], bytes.len() as u64, "k = {k}");
        }
        let leftovers: Vec<_> = std::fs::read_dir(out.join("tables/zhajinhua"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(leftovers.is_empty(), "k = {k}: {leftovers:?}");
    }
}

/// An output place that cannot be written (here the charts' folder is a file) is found
/// before any work, and leaves the previous set exactly as it was, with no journal or
/// temporary file.
#[test]
fn an_unwritable_report_leaves_the_previous_set_untouched() {
    let out = tempfile::tempdir().unwrap();
    let job = repo("jobs/zhajinhua.toml");
    let run = || {
        bin()
            .args(["run", job.to_str().unwrap(), "--quiet", "--out"])
            .arg(out.path())
            .output()
            .unwrap()
    };
    assert!(run().status.success());
    let charts = out.path().join("reports/zhajinhua");
    std::fs::remove_dir_all(&charts).unwrap();
    std::fs::write(&charts, b"not a folder").unwrap();
    let before = files(out.path());
    let manifest = std::fs::read(out.path().join("tables/zhajinhua/manifest.json")).unwrap();
    let failed = run();
    assert_eq!(failed.status.code(), Some(1));
    assert!(
        stderr(&failed).contains("a file is in the way"),
        "{}",
        stderr(&failed)
    );
    assert_eq!(files(out.path()), before);
    assert_eq!(
        std::fs::read(out.path().join("tables/zhajinhua/manifest.json")).unwrap(),
        manifest
    );
}

/// Seeded random damage to the runtime tables real jobs wrote (one per game), fed
/// through `inspect`, which decodes a table completely as an app would: truncations,
/// appended bytes, damaged headers, and damaged payloads with the checksum repaired so
/// the decoders themselves are attacked. Each must be inspected or refused cleanly
/// (exit 1, a message naming the file, nothing on stdout), never a panic.
#[test]
fn random_damage_to_every_runtime_table_is_refused_cleanly_by_inspect() {
    use cardtables::format::HEADER_LEN;
    let work = tempfile::tempdir().unwrap();
    let out = work.path();
    let showhand = out.join("showhand.toml");
    let text = std::fs::read_to_string(repo("jobs/showhand.toml")).unwrap();
    let quick: Vec<&str> = text
        .lines()
        .map(|l| {
            if l.starts_with("headsup_decks") {
                "headsup_decks = [28]"
            } else {
                l
            }
        })
        .collect();
    std::fs::write(&showhand, quick.join("\n")).unwrap();
    for job in [
        repo("jobs/zhajinhua.toml"),
        repo("jobs/holdem_preflop.toml"),
        repo("jobs/blackjack_6d_s17.toml"),
        showhand,
    ] {
        run_ok(&[
            "run",
            job.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
    }
    let tables = [
        out.join("tables/zhajinhua/zhajinhua.bin"),
        out.join("tables/holdem_preflop/holdem.bin"),
        out.join("tables/blackjack_6d_s17/blackjack.bin"),
        out.join("tables/showhand/stud.bin"),
        table_path(),
    ];
    let mut rng = Mutator(0x7ab1e5);
    let mut refused = 0;
    let mut accepted = 0;
    for table in &tables {
        let good = std::fs::read(table).unwrap();
        let inspected = run_ok(&["inspect", table.to_str().unwrap()]);
        assert!(String::from_utf8_lossy(&inspected.stdout).contains("checksum:    ok"));
        for k in 0..30 {
            let mut bytes = good.clone();
            let payload = bytes.len() - HEADER_LEN;
            let mut repair = true;
            match k % 6 {
                // Truncated anywhere.
                0 => bytes.truncate(rng.below(bytes.len())),
                // Bytes appended.
                1 => bytes.extend(std::iter::repeat_n(0xA5, 1 + rng.below(64))),
                // A header byte changed (magic, version, game, lengths, checksum).
                2 => {
                    let at = rng.below(HEADER_LEN);
                    bytes[at] ^= 1 << rng.below(8);
                    repair = false;
                }
                // A few payload bytes changed, early (length prefixes) or anywhere.
                3 | 4 => {
                    for _ in 0..1 + rng.below(4) {
                        let span = if k % 6 == 3 { payload.min(64) } else { payload };
                        let at = HEADER_LEN + rng.below(span);
                        bytes[at] = rng.below(256) as u8;
                    }
                }
                // A payload byte set to an extreme value.
                _ => {
                    let at = HEADER_LEN + rng.below(payload);
                    bytes[at] = [0x00, 0xFF, 0x7F, 0x80][rng.below(4)];
                }
            }
            if repair && bytes.len() >= HEADER_LEN {
                let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
                bytes[32..36].copy_from_slice(&crc.to_le_bytes());
            }
            let damaged = out.join("damaged.bin");
            std::fs::write(&damaged, &bytes).unwrap();
            let result = bin().arg("inspect").arg(&damaged).output().unwrap();
            let err = stderr(&result);
            assert!(
                !err.contains("panicked"),
                "{} damage {k}: {err}",
                table.display()
            );
            match result.status.code() {
                Some(0) => accepted += 1,
                Some(1) => {
                    assert!(result.stdout.is_empty(), "{} damage {k}", table.display());
                    assert!(err.contains("damaged.bin"), "{err}");
                    refused += 1;
                }
                code => panic!("{} damage {k}: exit {code:?}\n{err}", table.display()),
            }
        }
    }
    // Some damage leaves a valid table (a changed probability); most must be refused.
    assert!(
        refused >= 100,
        "only {refused} refused, {accepted} accepted"
    );
}

/// `pipeline run` ends with the main results in a few lines on stderr (not with --quiet).
#[test]
fn a_run_ends_with_its_headline() {
    let out = tempfile::tempdir().unwrap();
    let job = repo("jobs/zhajinhua.toml");
    let run = |quiet: bool| {
        let mut command = bin();
        command
            .args(["run", job.to_str().unwrap(), "--out"])
            .arg(out.path());
        if quiet {
            command.arg("--quiet");
        }
        command.output().unwrap()
    };
    let said = stderr(&run(false));
    assert!(
        said.contains("Ks Kh Qd: equity against 1 to 2 opponents 0.8970, 0.8046 (exact)"),
        "{said}"
    );
    assert!(said.contains("豹子 trips 52 hands (0.002353)"), "{said}");
    assert!(!stderr(&run(true)).contains("equity"));
}

/// The jobs that sample write the same bytes on one thread, on every thread, and as two
/// shards merged: `niuniu.bidding` runs its one-deck check in units (each shard solving
/// the equilibrium it checks) from streams of (seed, class), `niuniu.multiway` in its units from streams of (seed, unit),
/// `blackjack.indices` draws its shoes in its units from streams of (seed, unit), and
/// `blackjack.counter` plays its rounds in units of 10 M (three here) the same way.
#[test]
fn sampled_jobs_are_the_same_for_any_threads_and_shards() {
    let work = tempfile::tempdir().unwrap();
    for (name, text) in [
        (
            "bid",
            "[job]\nkind = \"niuniu.bidding\"\nname = \"bid\"\n[bidding]\ncheck_deals_per_class = 200\n",
        ),
        (
            "multi",
            "[job]\nkind = \"niuniu.multiway\"\nname = \"multi\"\n[multiway]\ndeals_per_slot = 100\n",
        ),
        (
            "idx",
            "[job]\nkind = \"blackjack.indices\"\nname = \"idx\"\n[rules]\ndecks = 1\nmax_split_hands = 2\n[count]\nrange = [-2, 2]\n[indices]\npenetration = 0.5\npoints_per_count = 3\n",
        ),
        (
            "ctr",
            "[job]\nkind = \"blackjack.counter\"\nname = \"ctr\"\n[rules]\ndecks = 2\n[play]\nhands = 2\nothers = 1\nwong_out = -1\npreset = \"illustrious-18\"\n[betting]\nramps = [[[2, 2]], [[1, 3], [4, 9]]]\nrounds = 20_000_001\ntrip_rounds = 1_000\n",
        ),
    ] {
        let job = work.path().join(format!("{name}.toml"));
        std::fs::write(&job, text).unwrap();
        let job = job.to_str().unwrap();
        let out = |dir: &str| work.path().join(dir).join(name);
        let all = out("all");
        run_ok(&["run", job, "--out", all.to_str().unwrap(), "--quiet"]);
        let one = out("one");
        run_ok(&["run", job, "--out", one.to_str().unwrap(), "--threads", "1", "--quiet"]);
        assert_same_outputs(&all, &one);
        let mut parts = Vec::new();
        for i in 0..2 {
            let shard = out(&format!("shard{i}"));
            run_ok(&[
                "run",
                job,
                "--out",
                shard.to_str().unwrap(),
                "--shard",
                &format!("{i}/2"),
                "--quiet",
            ]);
            parts.push(shard.join(format!("tables/{name}/parts")).display().to_string());
        }
        let merged = out("merged");
        let mut args = vec!["merge".to_string()];
        args.extend(parts);
        args.extend(["--out".into(), merged.display().to_string(), "--quiet".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_ok(&args);
        assert_same_outputs(&all, &merged);
    }
}

/// `pipeline equity` as a hostile user drives it: every figure it prints is finite, and
/// every refusal is exit 2 with its cause, nothing on stdout.
#[test]
fn equity_answers_finite_figures_or_refuses_with_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    let no_table = dir.path().join("none.bin");
    let equity = |args: &[&str]| {
        bin()
            .arg("equity")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    // Products of valid tiny weights underflow a double: the answer is that of weights 1.
    let tiny = equity(&["AKs:1e-200", "KK:1e-200", "--board", "2c 3c 4c", "--json"]);
    let plain = equity(&["AKs", "KK", "--board", "2c 3c 4c", "--json"]);
    assert_eq!(tiny.status.code(), Some(0), "{}", stderr(&tiny));
    let (t, p) = (
        String::from_utf8_lossy(&tiny.stdout).to_string(),
        String::from_utf8_lossy(&plain.stdout).to_string(),
    );
    assert!(!t.contains("null") && !t.contains("NaN"), "{t}");
    let field = |s: &str, key: &str| {
        s[s.find(key).unwrap()..]
            .split(']')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(field(&t, "\"equity\""), field(&p, "\"equity\""));
    let text = equity(&["AKs:1e-300", "KK:1e-300", "QJs:1e-300"]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    assert!(!String::from_utf8_lossy(&text.stdout).contains("NaN"));
    // A range text of 125,000 characters (about the most one argument may hold): no
    // panic, the column cut.
    let long = "AKs, ".repeat(25_000) + "AKs";
    let out = equity(&[&long, "QQ", "--board", "2c 3d 4h"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        printed.lines().all(|l| l.chars().count() < 120),
        "{printed}"
    );
    assert!(printed.contains('…'), "{printed}");
    // One or seven ranges: the 2–6 limit, named.
    for n in [1, 7] {
        let ranges = vec!["AA"; n];
        let out = equity(&ranges);
        assert_eq!(out.status.code(), Some(2), "{n}");
        assert!(
            stderr(&out).contains("give 2 to 6"),
            "{n}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
    // Dead cards that leave four for a runout of five: that cause, not a shared card.
    let keep = ["Ah", "Kh", "Qs", "Qd", "2c", "3c", "4c", "5c"];
    let dead: Vec<String> = "23456789TJQKA"
        .chars()
        .flat_map(|r| "shdc".chars().map(move |s| format!("{r}{s}")))
        .filter(|c| !keep.contains(&c.as_str()))
        .collect();
    let out = equity(&["AhKh", "QsQd", "--dead", &dead.join(" ")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("only 4 cards are left for a runout of 5"),
        "{}",
        stderr(&out)
    );
    // Range errors quote what was typed; a lone [/50] is not blamed on nesting.
    let out = equity(&["top 10", "random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("\"top 10\"") && !stderr(&out).contains("top T"));
    let out = equity(&["[50]AKo, [/50]", "random"]);
    assert!(!stderr(&out).contains("inside another"), "{}", stderr(&out));
    // A 90 KB argument is quoted by its start and its length.
    let huge = "AK".to_string() + &"q".repeat(90_000);
    let out = equity(&[&huge, "random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).len() < 2_000, "{}", stderr(&out).len());
    // Connector and gapper spans.
    for span in ["T9s-76s", "T8s-64s", "J9s-75s"] {
        let out = equity(&[span, "random", "--board", "Ks 7d 2c", "--json"]);
        assert_eq!(out.status.code(), Some(0), "{span}: {}", stderr(&out));
    }
    // `top N%` by the ranking asked: under vs3, 10% is the set its order names, and the
    // answer is that set's; an unknown ranking is bad input, listing the two.
    let json = |args: &[&str]| {
        let out = equity(args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["equity"].clone()
    };
    let flop = ["--board", "Ks 7d 2c", "--json"];
    let top = json(&[&["10%", "random", "--ranking", "vs3"][..], &flop].concat());
    let named = json(&[&["77+, A9s+, KTs+, QTs+, AJo+, KQo", "random"][..], &flop].concat());
    assert_eq!(top, named);
    assert_ne!(top, json(&[&["10%", "random"][..], &flop].concat()));
    let out = equity(&["10%", "random", "--ranking", "vs2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("vs1") && stderr(&out).contains("vs3"),
        "{}",
        stderr(&out)
    );
    // A --table the question does not use: a warning; one that does not exist when it is
    // used: bad input, naming the file, not "run … first, or pass --table".
    let nt = no_table.to_str().unwrap();
    let out = equity(&["AA", "KK", "--board", "2c 3d 4h", "--table", nt]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("is not used"), "{}", stderr(&out));
    let out = equity(&["AA", "KK", "--table", nt]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--table") && !stderr(&out).contains("or pass --table"),
        "{}",
        stderr(&out)
    );
    // query holdem: opponents out of range before any table is opened.
    for n in ["0", "10"] {
        let out = bin()
            .args(["query", "holdem", "AKs", "--opponents", n, "--table", nt])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{n}");
        assert!(stderr(&out).contains("1 to 9"), "{n}: {}", stderr(&out));
    }
}

/// A tiny three-handed push/fold job: its runtime table answers `query pushfold
/// --players 3`, and every question it cannot answer is a usage error that says why.
#[test]
fn three_handed_pushfold_job_and_query() {
    let work = tempfile::tempdir().unwrap();
    let job = work.path().join("pf3.toml");
    std::fs::write(
        &job,
        "[job]\nkind = \"holdem.pushfold3\"\nname = \"pf3\"\n\n[pushfold3]\n\
         stack_min = 4\nstack_max = 8\nstack_step = 4\npayouts = [0.6, 0.4]\n\
         classes = [\"AA\", \"KK\", \"72o\"]\nspots = [[4, 6, 8]]\n",
    )
    .unwrap();
    run_ok(&[
        "run",
        job.to_str().unwrap(),
        "--out",
        work.path().to_str().unwrap(),
        "--quiet",
    ]);
    let table = work.path().join("tables/pf3/pushfold3.bin");
    let ask = |args: &[&str]| {
        let mut all = vec!["query", "pushfold"];
        all.extend_from_slice(args);
        all.extend(["--table", table.to_str().unwrap()]);
        bin().args(&all).output().unwrap()
    };
    let text = |args: &[&str]| {
        let out = ask(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // AA is always played; a stack between grid stacks is answered at the one below.
    let all = text(&["AA", "--players", "3", "--stack", "7.5"]);
    assert!(all.contains("stacks 4/4/4 (BTN/SB/BB)"), "{all}");
    assert_eq!(all.matches("always").count(), 6, "{all}");
    let sb = text(&[
        "Ah Ad",
        "--players",
        "3",
        "--stack",
        "8",
        "--position",
        "sb",
        "--facing",
        "push",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(sb.trim()).unwrap();
    assert_eq!(json["decision"], "sb_call");
    assert_eq!(json["frequency"], 1.0);
    assert_eq!(json["btn_stack_bb"], 8.0);
    assert_eq!(json["payoff"], "chip_ev");
    // A spot at unequal stacks, asked by its three stacks.
    let side = text(&["AA", "--players", "3", "--stacks", "4,6,8", "--json"]);
    let json: serde_json::Value = serde_json::from_str(side.trim()).unwrap();
    assert_eq!(json["sb_stack_bb"], 6.0);
    assert_eq!(json["decisions"].as_array().map(Vec::len), Some(6));
    let icm = text(&[
        "KK",
        "--players",
        "3",
        "--stack",
        "4",
        "--position",
        "bb",
        "--payouts",
        "0.6,0.4",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(icm.trim()).unwrap();
    assert_eq!(json["payoff"], "icm");
    assert_eq!(json["decisions"].as_array().map(Vec::len), Some(3));
    for (args, fragment) in [
        (
            vec!["AA", "--players", "3", "--stack", "3"],
            "outside this table's equal stacks, 4 to 8 bb",
        ),
        (
            vec!["AA", "--players", "3", "--stack", "9"],
            "outside this table's equal stacks",
        ),
        (
            vec!["QQ", "--players", "3", "--stack", "4"],
            "does not cover class 2",
        ),
        (
            vec![
                "AA",
                "--players",
                "3",
                "--stack",
                "4",
                "--position",
                "bb",
                "--facing",
                "push",
            ],
            "sb-push",
        ),
        (
            vec![
                "AA",
                "--players",
                "3",
                "--stack",
                "4",
                "--position",
                "btn",
                "--facing",
                "push",
            ],
            "faces none",
        ),
        (
            vec!["AA", "--players", "3", "--stack", "4", "--position", "co"],
            "give btn, sb or bb",
        ),
        (
            vec!["AA", "--players", "3", "--stacks", "4,8,6"],
            "no spot with stacks 4/8/6",
        ),
        (
            vec!["AA", "--players", "3", "--stacks", "4,6"],
            "is not three stacks",
        ),
        (
            vec![
                "AA",
                "--players",
                "3",
                "--stack",
                "4",
                "--payouts",
                "0.5,0.3,0.2",
            ],
            "payouts are [0.6, 0.4]",
        ),
        (
            vec![
                "AA",
                "--players",
                "3",
                "--stack",
                "4",
                "--payouts",
                "0.3,0.6",
            ],
            "must not pay more",
        ),
        (
            vec![
                "AA",
                "--players",
                "3",
                "--stack",
                "4",
                "--payouts",
                "0.5,0.3,0.1,0.1",
            ],
            "at most 3",
        ),
        (vec!["AA", "--players", "4", "--stack", "4"], "2..=3"),
        (
            vec!["AA", "--stack", "4", "--position", "sb"],
            "add --players 3",
        ),
        (
            vec!["AA", "--players", "3", "--stack", "4", "--facing", "push"],
            "--position",
        ),
        (
            vec!["AA", "--players", "3", "--stack", "4", "--ante", "0.5"],
            "ante of 0 bb",
        ),
    ] {
        let out = ask(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(fragment),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
