//! `FOOTLIGHTS_GOVERNOR`: read when a system is built, below the builder's choice, and a
//! bad value is an error naming the variable and the word.
//!
//! This file holds one test, so that no other thread of its process reads or writes the
//! environment while it changes it.

use footlights::{ConfigError, Governor, Rule, System};

#[test]
fn the_environment_chooses_the_governor_unless_the_builder_does() {
    let set = |value: &str| {
        // SAFETY: the only test of this process (see the module documentation): no other
        // thread reads or writes the environment meanwhile.
        unsafe { std::env::set_var("FOOTLIGHTS_GOVERNOR", value) };
    };

    set("plain + labels + flood");
    let system = System::builder().threads(2).build().unwrap();
    let from_env = Governor::plain().with(Rule::Labels).with(Rule::Flood);
    assert_eq!(system.governor(), from_env);
    system.shutdown();

    let chosen = Governor::adaptive().without(Rule::Watcher);
    let system = System::builder()
        .threads(2)
        .governor(chosen)
        .build()
        .unwrap();
    assert_eq!(system.governor(), chosen, "the builder's choice wins");
    system.shutdown();

    set("adaptive-watchman");
    let Err(err) = System::builder().threads(2).build() else {
        panic!("a bad value was accepted");
    };
    match &err {
        ConfigError::BadGovernor {
            var,
            word,
            position,
            ..
        } => {
            assert_eq!(*var, Some("FOOTLIGHTS_GOVERNOR"));
            assert_eq!((word.as_str(), *position), ("watchman", 9));
        }
        other => panic!("not a governor error: {other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.contains("FOOTLIGHTS_GOVERNOR") && text.contains("\"watchman\""),
        "{text}"
    );

    // SAFETY: as above.
    unsafe { std::env::remove_var("FOOTLIGHTS_GOVERNOR") };
    let system = System::builder().threads(1).build().unwrap();
    assert_eq!(system.governor(), Governor::adaptive(), "the default");
    system.shutdown();
}
