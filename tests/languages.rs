//! Each of the five languages: a correct program is AC, a broken one is CE
//! with the compiler's message kept. Real compilers, real processes.

mod common;

use common::{Project, verdicts};

fn assert_ac(p: &Project, name: &str, src: &str) {
    let r = p.judge_source(name, src, &[]);
    assert_eq!(r["verdict"], "AC", "{name}: {r:#}");
    assert_eq!(r["score"], 100.0);
    assert!(verdicts(&r).iter().all(|v| v == "AC"));
}

fn assert_ce(p: &Project, name: &str, src: &str, log_mentions: &str) {
    let r = p.judge_source(name, src, &[]);
    assert_eq!(r["verdict"], "CE", "{name}: {r:#}");
    assert_eq!(r["compile"]["ok"], false);
    let log = r["compile"]["log"].as_str().unwrap_or("");
    assert!(
        log.contains(log_mentions),
        "{name}: compile log lacks {log_mentions:?}:\n{log}"
    );
    assert_eq!(r["tests"].as_array().map(Vec::len), Some(0));
}

#[test]
fn c() {
    let p = Project::toy("");
    assert_ac(&p, "ok.c", common::TOY_C);
    assert_ce(&p, "bad.c", "int main( { return 0 }\n", "error");
}

#[test]
fn cpp() {
    let p = Project::toy("");
    let ok = "#include <iostream>\nint main(){int n,a,x=0;std::cin>>n;while(n--){std::cin>>a;x^=a;}std::cout<<(x?\"Alice\":\"Bob\")<<\"\\n\";}\n";
    assert_ac(&p, "ok.cpp", ok);
    assert_ce(
        &p,
        "bad.cc",
        "int main() { undeclared_thing(); }\n",
        "undeclared_thing",
    );
}

#[test]
fn python() {
    let p = Project::toy("");
    let ok = "import sys\nd=list(map(int,sys.stdin.read().split()))\nx=0\nfor a in d[1:1+d[0]]: x^=a\nprint('Alice' if x else 'Bob')\n";
    assert_ac(&p, "ok.py", ok);
    assert_ce(&p, "bad.py", "def f(:\n  pass\n", "SyntaxError");
}

#[test]
fn rust() {
    let p = Project::toy("");
    let ok = "use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let v:Vec<u64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();let x=v[1..].iter().fold(0,|a,b|a^b);println!(\"{}\",if x!=0{\"Alice\"}else{\"Bob\"});}\n";
    assert_ac(&p, "ok.rs", ok);
    assert_ce(
        &p,
        "bad.rs",
        "fn main() { let x: u32 = \"no\"; }\n",
        "mismatched types",
    );
}

#[test]
fn java_any_file_name_and_any_main_class() {
    let p = Project::toy("");
    // The public class is not named after the file.
    let public = "import java.io.*;\nimport java.util.*;\npublic class Solver {\n  public static void main(String[] a) throws IOException {\n    BufferedReader r = new BufferedReader(new InputStreamReader(System.in));\n    StreamTokenizer t = new StreamTokenizer(r);\n    t.nextToken(); int n = (int) t.nval, x = 0;\n    for (int i = 0; i < n; i++) { t.nextToken(); x ^= (int) t.nval; }\n    System.out.println(x != 0 ? \"Alice\" : \"Bob\");\n  }\n}\n";
    assert_ac(&p, "student42.java", public);
    // No public class; main lives in the second class of the file.
    let helper_first = "import java.util.*;\nclass Helper { static int xor(int a, int b) { return a ^ b; } }\nclass Entry {\n  public static void main(String[] a) {\n    Scanner s = new Scanner(System.in); int n = s.nextInt(), x = 0;\n    for (int i = 0; i < n; i++) x = Helper.xor(x, s.nextInt());\n    System.out.println(x != 0 ? \"Alice\" : \"Bob\");\n  }\n}\n";
    assert_ac(&p, "whatever.java", helper_first);
    assert_ce(
        &p,
        "bad.java",
        "public class Main { void f() { int x = ; } }\n",
        "error",
    );
}

#[test]
fn java_without_main_is_ce() {
    let p = Project::toy("");
    assert_ce(&p, "nomain.java", "class Nothing { }\n", "main");
}

#[test]
fn second_run_uses_the_compile_cache() {
    let p = Project::toy("");
    // A language whose compile step also appends a line to a log of its
    // own, so the test counts compiler runs rather than cache entries. The
    // sandbox would rightly stop that write, hence `--sandbox off`.
    let log = p.path("compiles.log");
    let cfg = p.write(
        "langs.yaml",
        &format!(
            "languages:\n  - id: logged-c\n    extensions: [lc]\n    source_name: main.c\n    compile: [\"/bin/sh\", \"-c\", \"echo run >> {} && cc -O2 -o {{bin}} {{src}}\"]\n    run: [\"{{bin}}\"]\n",
            log.display()
        ),
    );
    let file = p.write("subs/cached.lc", common::TOY_C);
    let f = file.to_string_lossy().into_owned();
    // A cache of this test's own, so no other test can have filled it.
    let cache = p.path("cache");
    let judge = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args([
                "judge",
                "toy",
                &f,
                "--json",
                "--sandbox",
                "off",
                "--languages",
            ])
            .arg(&cfg)
            .arg("--problems")
            .arg(p.path("problems"))
            .arg("--cache")
            .arg(&cache)
            .output()
            .expect("run grundy")
    };
    let compiles = || {
        std::fs::read_to_string(&log)
            .map(|s| s.lines().count())
            .unwrap_or(0)
    };
    let first = judge();
    let v: serde_json::Value = serde_json::from_slice(&first.stdout).expect("json");
    assert_eq!(v["results"][0]["verdict"], "AC", "{v:#}");
    assert_eq!(compiles(), 1, "the first judging did not compile once");
    let second = judge();
    assert!(second.status.success(), "{}", common::stderr(&second));
    assert_eq!(compiles(), 1, "the second judging compiled again");
}

#[test]
fn lang_flag_overrides_the_extension() {
    let p = Project::toy("");
    let file = p.write("subs/solution.txt", common::TOY_C);
    let f = file.to_string_lossy().into_owned();
    let unknown = p.grundy(&["judge", "toy", &f]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        common::stderr(&unknown).contains("--lang"),
        "{}",
        common::stderr(&unknown)
    );
    let v = p.judge_json(&file, &["--lang", "c"]);
    assert_eq!(v["results"][0]["verdict"], "AC");
    assert_eq!(v["results"][0]["language"], "c");
}

#[test]
fn languages_config_file_overrides_a_command() {
    let p = Project::toy("");
    // A "language" whose run command ignores the program and prints Bob.
    let cfg = p.write(
        "langs.yaml",
        "languages:\n  - id: always-bob\n    extensions: [bob]\n    run: [\"/bin/sh\", \"-c\", \"echo Bob\"]\n",
    );
    let file = p.write("subs/x.bob", "anything");
    let out = p.grundy(&[
        "judge",
        "toy",
        &file.to_string_lossy(),
        "--json",
        "--languages",
        &cfg.to_string_lossy(),
        "--all",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["results"][0]["language"], "always-bob");
    assert_eq!(verdicts(&v["results"][0]), ["AC", "WA", "AC", "WA"]);
}
