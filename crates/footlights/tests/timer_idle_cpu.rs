//! An idle system with pending timers uses no CPU until the next one is due.
//!
//! This file holds one test, so that the process's CPU time (every thread's: the test's,
//! the workers', the timer thread's) is this test's alone; the test harness runs the
//! tests of one file as threads of one process. CPU time, unlike wall time, does not
//! grow when other processes load the machine: a thread that slept uses none, however
//! long the machine took to run it again. The bound is loose (a twentieth of the idle
//! stretch) and the expected use tiny (one wake-up of the timer thread and one turn);
//! a thread that polled the clock or spun would use most of the stretch, and even on a
//! machine so loaded that it ran only an eighth of the time, more than the bound.

mod common;

use std::time::{Duration, Instant};

use common::{PATIENCE, system};
use footlights::{Actor, Context, ReplyTo};

/// This process's CPU time so far, user and system, over all its threads.
fn cpu_time() -> Duration {
    // SAFETY: `getrusage` fills the struct it is given; a zeroed `rusage` is a valid one.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(
            libc::getrusage(libc::RUSAGE_SELF, &mut usage),
            0,
            "getrusage"
        );
        usage
    };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

/// Answers each reply it is sent when its timer brings it.
struct Bell;
impl Actor for Bell {
    type Msg = ReplyTo<Instant>;
    fn handle(&mut self, _: &mut Context<Self>, r: ReplyTo<Instant>) {
        let _ = r.send(Instant::now());
    }
}

#[test]
fn an_idle_system_with_pending_timers_sleeps_until_the_next_deadline() {
    let system = system(2);
    let bell = system.spawn(Bell);
    // Many pending timers far away, and a periodic one: none is due during the test.
    for i in 0..10_000u64 {
        bell.send_after(Duration::from_secs(3600 + i), footlights::reply::pair().0);
    }
    let _every = bell.send_interval(Duration::from_secs(3600), || footlights::reply::pair().0);
    // A first timer, so that the timer thread runs and the workers have gone idle once.
    let (first, rang) = footlights::reply::pair();
    bell.send_after(Duration::from_millis(50), first);
    rang.wait_timeout(PATIENCE)
        .expect("the first timer fired")
        .expect("answered");
    let idle = Duration::from_secs(2);
    let (second, rang) = footlights::reply::pair();
    let (wall0, cpu0) = (Instant::now(), cpu_time());
    bell.send_after(idle, second);
    let at = rang
        .wait_timeout(PATIENCE)
        .expect("the second timer fired")
        .expect("answered");
    let (wall, cpu) = (wall0.elapsed(), cpu_time() - cpu0);
    assert!(at >= wall0 + idle, "not before its deadline");
    assert_eq!(system.pending_timers(), 10_001);
    eprintln!(
        "idle for {:.3} s with {} timers pending: {:.1} ms of CPU",
        wall.as_secs_f64(),
        system.pending_timers(),
        cpu.as_secs_f64() * 1000.0
    );
    assert!(
        cpu < idle / 20,
        "the idle system used {cpu:?} of CPU over {wall:?}: it does not sleep until the next \
         deadline"
    );
}
