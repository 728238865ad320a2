//! The launch wrapper: `rollarena __launch SPEC` sets a bot up and runs it.
//!
//! It runs as a fresh single-threaded process started by the arbiter, so it may do what a
//! threaded program must not do between `fork` and `exec`. Three processes:
//!
//! ```text
//! arbiter ─ wrapper W ─ init I (PID 1 of the bot's PID namespace) ─ bot B (exec'd command)
//! ```
//!
//! The arbiter starts W in a new process group, the bot's group, whose id is W's pid: the one
//! the arbiter signals to freeze (SIGSTOP), resume and kill (SIGKILL) the bot and every process
//! it started. Once B is forked, I and W leave that group for one of their own (I makes it, W
//! joins it when I says so through a pipe), so the group holds the bot's processes only: the
//! freezing at every move of a match then stops and resumes the bot alone, not two idle helpers
//! as well (each would be woken twice per move for nothing). They still die with the bot: I
//! when B ends, W when I ends; and with the arbiter (parent-death signals), the cgroups and the
//! namespace as before. Without a PID namespace W stays in the group (there is no other group
//! for it to join but the arbiter's, where terminal signals would reach it).
//!
//! - W arms a parent-death signal (SIGKILL when the arbiter dies, even by SIGKILL), joins the
//!   bot's cgroups, unshares the namespaces, sets the rlimits, forks I, closes its own stdio
//!   (so that a bot closing stdout is seen as EOF), and waits. When I ends, W ends the same way
//!   B did (same exit status, or the same signal), so the arbiter sees the bot's own fate.
//! - I is PID 1 of the new PID namespace: when it dies the kernel kills every process left in
//!   the namespace, however they escaped the process group. It reaps orphans, waits for B and
//!   reports B's raw wait status to W through a pipe. It exists because a bot that were PID 1
//!   itself would be immune to the signals it sends itself (a crashing `kill(getpid(), SIGSEGV)`
//!   would do nothing).
//! - B drops to the bot user, arms its own parent-death signal (a credential change clears
//!   it, so this comes after), sets no-new-privileges, enters its scratch directory, applies
//!   landlock (strict), restores default signal dispositions, marks every descriptor but
//!   stdin, stdout and stderr close-on-exec, and execs the command.
//!
//! Without a PID namespace (`--sandbox none` as root) there is no I: W forks B directly.

use std::ffi::CString;
use std::io::Write;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{BotUser, Isolation, Level, ResourceLimits, world};
use crate::Error;

/// The hidden subcommand that runs the wrapper.
pub const WRAPPER_ARG: &str = "__launch";

/// Exit status of the wrapper when it could not set the bot up (the reason is on stderr).
pub const SETUP_FAILED: i32 = 125;

/// Everything the wrapper needs, passed as one JSON argument.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchSpec {
    /// The command; the program is an absolute path.
    pub argv: Vec<String>,
    /// The bot's working directory (its scratch directory).
    pub cwd: PathBuf,
    /// The bot's whole environment; `None` keeps the arbiter's (level `none`).
    pub env: Option<Vec<(String, String)>>,
    pub uid: Option<u32>,
    pub gid: Option<u32>,
    pub level: Level,
    pub limits: ResourceLimits,
    /// `cgroup.procs` files to join; when empty, rlimits stand in for memory and processes.
    pub cgroups: Vec<PathBuf>,
    /// The arbiter's pid: the wrapper gives up if its parent is already gone.
    pub parent: u32,
    /// The bot may run on every CPU: the binding it inherited from the thread that launched
    /// it, which only placed its start ([`PLACE_ONLY`]), is undone before its exec.
    #[serde(default)]
    pub free_cpus: bool,
    /// `cwd` is the bot's scratch directory (made empty for it under the scratch root): in
    /// its world it is a directory of the bot's tmpfs ([`world`]), not the host's.
    #[serde(default)]
    pub scratch: bool,
}

/// Set by a tournament whose table threads are bound to CPUs only to place their tables (not
/// `--pin`): the bots they launch start on their table's CPU and are then free to move.
pub static PLACE_ONLY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl LaunchSpec {
    /// The launch of `argv` in `cwd` as `user` (the bot's identity, `None` to stay the
    /// arbiter's user), joining the `cgroups`.
    pub fn new(
        iso: &Isolation,
        user: Option<&BotUser>,
        argv: Vec<String>,
        cwd: PathBuf,
        cgroups: Vec<PathBuf>,
    ) -> Self {
        let env = (iso.level != Level::None).then(|| {
            let dir = cwd.display().to_string();
            let user = user
                .map(|u| u.name.replace(' ', "-"))
                .unwrap_or_else(|| std::env::var("USER").unwrap_or_else(|_| "bot".into()));
            vec![
                ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
                ("HOME".into(), dir.clone()),
                ("TMPDIR".into(), dir.clone()),
                ("ROLLARENA_SCRATCH".into(), dir),
                ("LANG".into(), "C.UTF-8".into()),
                ("USER".into(), user.clone()),
                ("LOGNAME".into(), user),
            ]
        });
        LaunchSpec {
            argv,
            scratch: cwd.starts_with(&iso.scratch_root) && cwd != iso.scratch_root,
            cwd,
            env,
            uid: user.map(|u| u.uid),
            gid: user.map(|u| u.gid),
            level: iso.level,
            limits: iso.limits,
            cgroups,
            parent: std::process::id(),
            free_cpus: PLACE_ONLY.load(std::sync::atomic::Ordering::Relaxed),
        }
    }

    pub fn to_arg(&self) -> String {
        serde_json::to_string(self).expect("a launch spec serialises")
    }
}

/// Prints why the setup failed (a whole sentence) and exits with [`SETUP_FAILED`].
pub(super) fn fail_with(why: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "rollarena sandbox: {why}");
    // SAFETY: _exit is always safe; no destructors should run in a half-set-up process.
    unsafe { libc::_exit(SETUP_FAILED) }
}

/// Prints why the setup failed (with the OS error) and exits with [`SETUP_FAILED`].
fn fail(what: &str) -> ! {
    let err = std::io::Error::last_os_error();
    let _ = writeln!(std::io::stderr(), "rollarena sandbox: {what}: {err}");
    // SAFETY: _exit is always safe; no destructors should run in a half-set-up process.
    unsafe { libc::_exit(SETUP_FAILED) }
}

fn check(ret: libc::c_int, what: &str) {
    if ret == -1 {
        fail(what);
    }
}

/// The wrapper's entry point.
pub fn run(arg: &str) -> ! {
    let spec: LaunchSpec = match serde_json::from_str(arg) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rollarena sandbox: bad launch spec: {e}");
            std::process::exit(SETUP_FAILED);
        }
    };
    // SAFETY: plain system calls on our own process; the wrapper is single-threaded.
    unsafe {
        check(
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0),
            "parent-death signal",
        );
        if libc::getppid() as u32 != spec.parent {
            // The arbiter died before the signal was armed.
            libc::_exit(SETUP_FAILED);
        }
    }
    let me = std::process::id().to_string();
    for procs in &spec.cgroups {
        if std::fs::write(procs, &me).is_err() {
            fail(&format!("joining the cgroup {}", procs.display()));
        }
    }
    let root = super::is_root();
    let mut flags = match spec.level {
        Level::None => 0,
        Level::Basic | Level::Strict => world::NAMESPACES,
    };
    if flags != 0 && !root {
        flags |= libc::CLONE_NEWUSER;
    }
    if flags != 0 {
        // SAFETY: unshare only changes this process's namespaces.
        check(unsafe { libc::unshare(flags) }, &namespace_names(flags));
        if flags & libc::CLONE_NEWUSER != 0 {
            map_own_ids();
        }
        if let Err(e) = world::loopback_up() {
            fail_with(&e.to_string());
        }
        // Neither W nor I may be traced or read (/proc/<pid>/mem, environ) by the bot, even
        // when it runs as the arbiter's own user (not root); the bot's exec makes it
        // dumpable again for itself.
        // SAFETY: prctl on our own process.
        check(
            unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) },
            "making the wrapper undumpable",
        );
    }
    set_rlimits(&spec.limits, spec.cgroups.is_empty());
    let sigchld = quiet_sigchld();
    let (read_fd, write_fd) = status_pipe();
    let (left_read, left_write) = status_pipe();
    // SAFETY: fork in a single-threaded process.
    let child = unsafe { libc::fork() };
    check(child, "fork");
    if child == 0 {
        // SAFETY: closing our copies of the pipes' read ends.
        unsafe {
            libc::close(read_fd);
            libc::close(left_read);
        }
        if spec.level == Level::None {
            bot(&spec);
        }
        init(&spec, write_fd, left_write, &sigchld);
    }
    // SAFETY: the wrapper keeps nothing of the bot's pipes, so the bot's EOF is the arbiter's.
    unsafe {
        libc::close(write_fd);
        libc::close(left_write);
        detach_stdio();
    }
    if spec.level != Level::None {
        leave_bot_group(left_read, child);
    }
    let status = wait_for(child, &sigchld);
    let reported = read_status(read_fd);
    end_like(reported.unwrap_or(status));
}

/// Names of the namespaces in `flags`, for error messages.
fn namespace_names(flags: libc::c_int) -> String {
    let names: Vec<&str> = [
        (libc::CLONE_NEWUSER, "user"),
        (libc::CLONE_NEWPID, "PID"),
        (libc::CLONE_NEWNS, "mount"),
        (libc::CLONE_NEWNET, "network"),
        (libc::CLONE_NEWIPC, "IPC"),
        (libc::CLONE_NEWCGROUP, "cgroup"),
    ]
    .into_iter()
    .filter(|(f, _)| flags & f != 0)
    .map(|(_, n)| n)
    .collect();
    format!(
        "creating {} namespaces (the kernel must allow them{})",
        names.join(", "),
        if flags & libc::CLONE_NEWUSER != 0 {
            ": without root, unprivileged user namespaces must be enabled, \
             sysctl kernel.unprivileged_userns_clone=1 or user.max_user_namespaces > 0"
        } else {
            ""
        }
    )
}

/// In a new user namespace, map our own uid and gid to themselves.
fn map_own_ids() {
    // SAFETY: getuid/getgid have no preconditions.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let write = |file: &str, text: String| {
        if std::fs::write(file, text).is_err() {
            fail(&format!("writing {file}"));
        }
    };
    write("/proc/self/setgroups", "deny".into());
    write("/proc/self/uid_map", format!("{uid} {uid} 1"));
    write("/proc/self/gid_map", format!("{gid} {gid} 1"));
}

fn set_rlimits(limits: &ResourceLimits, no_cgroups: bool) {
    let set = |resource, value: u64, what: &str| {
        let lim = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: setrlimit with a valid struct.
        check(unsafe { libc::setrlimit(resource, &lim) }, what);
    };
    set(libc::RLIMIT_CORE, 0, "no core dumps");
    set(libc::RLIMIT_CPU, limits.cpu_secs, "CPU limit");
    set(libc::RLIMIT_NOFILE, limits.open_files, "open files limit");
    set(libc::RLIMIT_FSIZE, limits.file_size, "file size limit");
    if no_cgroups {
        // Stand-ins: per process rather than per bot, and per user for processes.
        set(libc::RLIMIT_DATA, limits.memory, "memory limit");
        set(libc::RLIMIT_NPROC, limits.processes, "process limit");
    }
}

fn status_pipe() -> (libc::c_int, libc::c_int) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two fds into the array.
    check(
        unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) },
        "pipe",
    );
    (fds[0], fds[1])
}

/// Points stdin, stdout and stderr at /dev/null.
///
/// # Safety
/// Only for the wrapper and init, which need none of them afterwards.
unsafe fn detach_stdio() {
    // SAFETY: the path is a valid C string; dup2 on valid fds.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null >= 0 {
            for fd in 0..3 {
                libc::dup2(null, fd);
            }
            if null > 2 {
                libc::close(null);
            }
        }
    }
}

/// Makes SIGCHLD mean "a child ended" only, and holds it for [`sleep_until_sigchld`].
///
/// The arbiter freezes a bot between its moves by stopping its whole process group, the
/// wrapper and init included, and resumes it for the next move. A parent sleeping in `waitpid`
/// is woken by every stop and every resumption of its child, only to sleep again: two useless
/// wake-ups per move for the wrapper and two for init. With SA_NOCLDSTOP no SIGCHLD is sent for
/// those, and a parent that sleeps in `sigwaitinfo` for SIGCHLD (blocked, so none is lost
/// between a `waitpid` that found nothing and the sleep) is woken only when a child ends.
/// Inherited by init (fork); the bot gets default signals and an empty mask back before exec.
fn quiet_sigchld() -> libc::sigset_t {
    extern "C" fn nothing(_: libc::c_int) {}
    // SAFETY: installing a handler that does nothing, and blocking one signal, in this
    // single-threaded process.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = nothing as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_NOCLDSTOP | libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        check(
            libc::sigaction(libc::SIGCHLD, &action, std::ptr::null_mut()),
            "SIGCHLD action",
        );
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGCHLD);
        check(
            libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()),
            "blocking SIGCHLD",
        );
        set
    }
}

/// Sleeps until a child ends (SIGCHLD, held by [`quiet_sigchld`]), or another signal comes.
fn sleep_until_sigchld(sigchld: &libc::sigset_t) {
    // SAFETY: sigwaitinfo on a valid set; the info is not wanted.
    unsafe { libc::sigwaitinfo(sigchld, std::ptr::null_mut()) };
}

/// W's side of leaving the bot's process group (see the module header): waits until init has
/// forked the bot and made a group of its own, then joins that group. If init never says so
/// (it died first), W stays where it is, which is only slower.
fn leave_bot_group(left: libc::c_int, init_pid: libc::pid_t) {
    let mut byte = 0u8;
    loop {
        // SAFETY: reading one byte into a local.
        let n = unsafe { libc::read(left, (&mut byte as *mut u8).cast(), 1) };
        if n == 1 {
            // SAFETY: setpgid on ourselves; a failure leaves us in the bot's group.
            unsafe { libc::setpgid(0, init_pid) };
        }
        if n != -1 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    // SAFETY: closing our own descriptor.
    unsafe { libc::close(left) };
}

/// Waits for `pid`; returns its raw wait status.
fn wait_for(pid: libc::pid_t, sigchld: &libc::sigset_t) -> libc::c_int {
    let mut status = 0;
    loop {
        // SAFETY: waitpid with a valid out pointer.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            return status;
        }
        if r == -1 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return status;
        }
        if r == 0 {
            sleep_until_sigchld(sigchld);
        }
    }
}

fn read_status(fd: libc::c_int) -> Option<libc::c_int> {
    let mut buf = [0u8; 4];
    // SAFETY: reading into a 4-byte buffer.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), 4) };
    (n == 4).then(|| libc::c_int::from_ne_bytes(buf))
}

/// Ends this process the way the bot ended: the same exit status or the same signal.
fn end_like(status: libc::c_int) -> ! {
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        // SAFETY: restoring the default action and raising the signal on ourselves; core
        // dumps are off (RLIMIT_CORE = 0).
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::raise(sig);
            libc::_exit(128 + sig);
        }
    }
    // SAFETY: _exit is always safe.
    unsafe { libc::_exit(libc::WEXITSTATUS(status)) }
}

/// PID 1 of the bot's namespace: forks the bot, leaves the bot's process group (telling W
/// through `left`, so that W follows), reaps everything, reports the bot's status.
fn init(spec: &LaunchSpec, report: libc::c_int, left: libc::c_int, sigchld: &libc::sigset_t) -> ! {
    // SAFETY: plain system calls in the single-threaded child.
    unsafe {
        check(
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0),
            "parent-death signal",
        );
        if let Err(e) = world::build(spec) {
            fail_with(&e.to_string());
        }
        let bot_pid = libc::fork();
        check(bot_pid, "fork");
        if bot_pid == 0 {
            libc::close(report);
            libc::close(left);
            bot(spec);
        }
        detach_stdio();
        // The bot is in the bot's group for good: I and then W may leave it.
        if libc::setpgid(0, 0) == 0 {
            libc::write(left, [1u8].as_ptr().cast(), 1);
        }
        libc::close(left);
        loop {
            let mut status = 0;
            let r = libc::waitpid(-1, &mut status, libc::WNOHANG);
            if r == 0 {
                sleep_until_sigchld(sigchld);
                continue;
            }
            if r == bot_pid {
                let bytes = status.to_ne_bytes();
                libc::write(report, bytes.as_ptr().cast(), 4);
                // Leaving PID 1 kills whatever the bot left behind in the namespace.
                libc::_exit(0);
            }
            if r == -1 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                libc::_exit(0);
            }
        }
    }
}

/// The bot process: identity, parent-death signal, scratch directory, landlock, exec.
fn bot(spec: &LaunchSpec) -> ! {
    // SAFETY: plain system calls in the single-threaded child before exec.
    unsafe {
        if let (Some(uid), Some(gid)) = (spec.uid, spec.gid) {
            check(libc::setgroups(0, std::ptr::null()), "dropping groups");
            check(libc::setgid(gid), "switching to the bot group");
            check(libc::setuid(uid), "switching to the bot user");
        }
        check(
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0),
            "parent-death signal",
        );
        check(
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
            "no new privileges",
        );
    }
    if spec.free_cpus {
        // Every bit set: the kernel keeps those of the CPUs this process's cpuset allows.
        // SAFETY: a cpu_set_t filled with ones is a valid set, of the size given.
        unsafe {
            let mut all: libc::cpu_set_t = std::mem::zeroed();
            std::ptr::write_bytes(&mut all, 0xff, 1);
            check(
                libc::sched_setaffinity(0, std::mem::size_of_val(&all), &all),
                "freeing the bot's CPUs",
            );
        }
    }
    if std::env::set_current_dir(&spec.cwd).is_err() {
        fail(&format!("entering {}", spec.cwd.display()));
    }
    if spec.level == Level::Strict
        && let Err(e) = restrict_filesystem(&spec.cwd)
    {
        let _ = writeln!(std::io::stderr(), "rollarena sandbox: landlock: {e}");
        // SAFETY: _exit is always safe.
        unsafe { libc::_exit(SETUP_FAILED) };
    }
    // SAFETY: restoring default dispositions (Rust ignores SIGPIPE; exec keeps ignored ones)
    // and an empty signal mask before exec.
    unsafe {
        for sig in 1..32 {
            if sig != libc::SIGKILL && sig != libc::SIGSTOP {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    }
    let cstr = |s: &str| CString::new(s).unwrap_or_else(|_| fail("a NUL byte in the command"));
    let argv: Vec<CString> = spec.argv.iter().map(|a| cstr(a)).collect();
    let mut argv_ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    argv_ptrs.push(std::ptr::null());
    let envp: Vec<CString> = match &spec.env {
        Some(env) => env.iter().map(|(k, v)| cstr(&format!("{k}={v}"))).collect(),
        None => std::env::vars()
            .map(|(k, v)| cstr(&format!("{k}={v}")))
            .collect(),
    };
    let mut env_ptrs: Vec<*const libc::c_char> = envp.iter().map(|e| e.as_ptr()).collect();
    env_ptrs.push(std::ptr::null());
    close_inherited_on_exec();
    // SAFETY: null-terminated arrays of valid C strings that outlive the call.
    unsafe { libc::execve(argv[0].as_ptr(), argv_ptrs.as_ptr(), env_ptrs.as_ptr()) };
    let err = std::io::Error::last_os_error();
    let _ = writeln!(
        std::io::stderr(),
        "rollarena sandbox: cannot run {}: {err}{}",
        spec.argv[0],
        if err.kind() == std::io::ErrorKind::PermissionDenied {
            " (the bot user must be able to read and run it: check the permissions of the file \
             and of every directory above it)"
        } else {
            ""
        }
    );
    // SAFETY: _exit is always safe.
    unsafe { libc::_exit(127) }
}

/// Marks every descriptor above stderr close-on-exec, so that a bot (or a build) starts with
/// stdin, stdout and stderr alone, whatever the arbiter was started with: a terminal's, a
/// service manager's or a test harness's descriptors, a file a library opened without
/// `O_CLOEXEC`. One of them left open would be a way into what it names (a database, a
/// socket, a pipe the bot could write into). System calls only, so it is safe between `fork`
/// and `exec` (the direct spawn's `pre_exec` calls it too).
pub fn close_inherited_on_exec() {
    // SAFETY: system calls on descriptor numbers; no memory is passed.
    unsafe {
        let (first, last) = (3 as libc::c_uint, libc::c_uint::MAX);
        if libc::syscall(
            libc::SYS_close_range,
            first,
            last,
            libc::CLOSE_RANGE_CLOEXEC,
        ) == 0
        {
            return;
        }
        // Before Linux 5.11: every possible descriptor, whatever the (maybe lowered) limit.
        for fd in 3..1 << 16 {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
}

/// Landlock: every write to the filesystem is denied except inside `scratch`, the bot's own
/// private temporary directories and the character devices programs expect to write
/// (/dev/null and friends). Reading is allowed.
fn restrict_filesystem(scratch: &std::path::Path) -> Result<(), Error> {
    use landlock::{
        ABI, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr,
        RulesetStatus, path_beneath_rules,
    };
    let abi = ABI::V3;
    let write = AccessFs::from_write(abi);
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(write)?
        .create()?
        .add_rules(path_beneath_rules([scratch], write))?
        .add_rules(path_beneath_rules(world::private_dirs(), write))?
        .add_rules(path_beneath_rules(
            ["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"],
            AccessFs::WriteFile | AccessFs::Truncate,
        ))?
        .restrict_self()?;
    if status.ruleset != RulesetStatus::FullyEnforced {
        return Err(Error::Sandbox(
            "the kernel does not fully enforce landlock".into(),
        ));
    }
    Ok(())
}
