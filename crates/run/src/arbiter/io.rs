//! The three pipes of a bot. None of them can block the arbiter.
//!
//! - stdout: an [`Inbox`], read where the session waits for the bot (no task in between: the
//!   bot's line wakes the session itself). A bounded line reader: a line longer than the limit
//!   is reported (with its head) and reading stops, so an endless line costs at most the limit
//!   in memory. Nothing is read while the session is not looking, so a bot that floods while
//!   nobody drains blocks on its own pipe (64 KiB). A child's pipe is read once directly before
//!   the session waits on it: a bot resumed on the arbiter's core has usually answered by the
//!   time the arbiter runs again, and its answer then costs one `read` instead of a wait
//!   through the runtime (an `epoll_wait`, a timer, then the `read`).
//! - stdin: a line is written straight into the pipe (non-blocking) when nothing is queued
//!   before it, which is almost always: one system call, no task hop. Whatever the pipe does not
//!   take at once (a bot that does not read its stdin fills the pipe, 64 KiB on Linux) waits in
//!   an unbounded queue of shared lines that a writer task drains as the pipe makes room, so a
//!   full pipe blocks only that task; the arbiter goes on and the bot times out on its next
//!   turn. Lines are `Arc`ed so a broadcast is one buffer.
//! - stderr: drained continuously by a task (a bot blocked on a full stderr pipe would look
//!   hung) into a bounded tail kept for the record, and optionally into a log file with a size
//!   cap.
//!
//! The waiter task that reaps the child hands its exit to the inbox, so the session sees one
//! stream of [`BotEvent`]s per bot: what the bot wrote before it exited comes before its exit.

use std::collections::VecDeque;
use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;

pub use crate::record::fault::{ExitInfo, signal_name};

/// Bytes of an over-long line kept as evidence.
pub const EVIDENCE_BYTES: usize = 200;

/// What a bot's stdout and its waiter report.
#[derive(Debug)]
pub enum BotEvent {
    /// A complete line, without its `\n`.
    Line(Vec<u8>),
    /// A line grew past the limit; reading stopped. `head` is its first bytes.
    TooLong { head: Vec<u8> },
    /// stdout was closed.
    Eof,
    /// The process exited.
    Exited(ExitInfo),
}

/// Bytes asked of the pipe per read (lines are usually far shorter; longer ones take more).
const READ_CHUNK: usize = 16 * 1024;

/// A bot's stdout and exit, read as a stream of [`BotEvent`]s.
pub struct Inbox {
    /// `None` once stdout ended, failed or sent an over-long line: nothing more is read.
    stdout: Option<Box<dyn AsyncRead + Unpin + Send>>,
    max_line: usize,
    chunk: Box<[u8]>,
    /// The line being read.
    line: Vec<u8>,
    /// Events read but not yet taken.
    ready: VecDeque<BotEvent>,
    /// The process's exit, from the waiter task; `None` once it was taken or cannot come.
    exit: Option<mpsc::Receiver<ExitInfo>>,
    /// The pipe's descriptor (non-blocking, owned by `stdout`) where `stdout` is a child's, for
    /// the read tried before waiting ([`Inbox::recv`]).
    fd: Option<RawFd>,
}

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inbox")
            .field("open", &self.stdout.is_some())
            .field("ready", &self.ready.len())
            .finish()
    }
}

impl Inbox {
    /// Reads lines of at most `max_line` bytes from `stdout`; `exit` brings the exit.
    pub fn new<R>(stdout: R, max_line: usize, exit: mpsc::Receiver<ExitInfo>) -> Inbox
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        let fd = (&stdout as &dyn std::any::Any)
            .downcast_ref::<tokio::process::ChildStdout>()
            .map(AsRawFd::as_raw_fd);
        Inbox {
            stdout: Some(Box::new(stdout)),
            max_line,
            chunk: vec![0u8; READ_CHUNK].into_boxed_slice(),
            line: Vec::new(),
            ready: VecDeque::new(),
            exit: Some(exit),
            fd,
        }
    }

    /// One read of the pipe now, without waiting and whatever the runtime last saw of it (a
    /// bot thawed on this core has usually answered before the arbiter runs again): what it
    /// brings is absorbed; an empty pipe leaves everything as it was.
    fn read_now(&mut self) {
        let Some(fd) = self.fd.filter(|_| self.stdout.is_some()) else {
            return;
        };
        // SAFETY: reading into our own buffer from the descriptor `stdout` owns and keeps open.
        let n = unsafe { libc::read(fd, self.chunk.as_mut_ptr().cast(), self.chunk.len()) };
        if n >= 0 {
            self.absorb(Ok(n as usize));
        } else {
            let err = std::io::Error::last_os_error();
            if !matches!(
                err.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
            ) {
                self.absorb(Err(err));
            }
        }
    }

    /// The next event, waiting for it. `None` when stdout is done and the exit cannot come
    /// (it was taken already, or the waiter failed).
    pub async fn recv(&mut self) -> Option<BotEvent> {
        // The read below may find the answer every time, and then this task never waits: it
        // yields to the runtime (the other bots' stderr, writers, signals) once its budget is
        // spent, as a wait on the pipe through the runtime would.
        tokio::task::coop::consume_budget().await;
        if self.ready.is_empty() {
            // Read before waiting: what is there now costs one `read`, where a wait through
            // the runtime costs an `epoll_wait`, a timer and the `read`.
            self.read_now();
        }
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Some(event);
            }
            match (&mut self.stdout, &mut self.exit) {
                (None, None) => return None,
                (None, Some(exit)) => {
                    let info = exit.recv().await;
                    return self.exited(info);
                }
                (Some(stdout), None) => {
                    let read = stdout.read(&mut self.chunk).await;
                    self.absorb(read);
                }
                (Some(stdout), Some(exit)) => {
                    // Lines first: what the bot wrote before it exited is read before its exit.
                    tokio::select! {
                        biased;
                        read = stdout.read(&mut self.chunk) => self.absorb(read),
                        info = exit.recv() => {
                            if let Some(event) = self.exited(info) {
                                return Some(event);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The next event if one is there now, without waiting.
    pub fn try_recv(&mut self) -> Option<BotEvent> {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Some(event);
            }
            let Some(stdout) = self.stdout.as_mut() else {
                break;
            };
            let mut buf = tokio::io::ReadBuf::new(&mut self.chunk);
            match std::pin::Pin::new(stdout).poll_read(&mut cx, &mut buf) {
                std::task::Poll::Ready(Ok(())) => {
                    let n = buf.filled().len();
                    self.absorb(Ok(n));
                }
                std::task::Poll::Ready(Err(e)) => self.absorb(Err(e)),
                std::task::Poll::Pending => break,
            }
        }
        let info = self.exit.as_mut()?.try_recv().ok();
        info.and_then(|info| self.exited(Some(info)))
    }

    /// Puts an event back in front, for the next reader.
    pub fn unread(&mut self, event: BotEvent) {
        self.ready.push_front(event);
    }

    /// Stops reading: stdout is closed and the waiter's report is refused from now on.
    pub fn close(&mut self) {
        self.stdout = None;
        self.ready.clear();
        if let Some(exit) = self.exit.as_mut() {
            exit.close();
        }
    }

    fn exited(&mut self, info: Option<ExitInfo>) -> Option<BotEvent> {
        self.exit = None;
        info.map(BotEvent::Exited)
    }

    /// Splits what a read brought into events.
    fn absorb(&mut self, read: std::io::Result<usize>) {
        let n = match read {
            Ok(0) => {
                if !self.line.is_empty() {
                    // A last line without its newline still counts as a line.
                    self.ready
                        .push_back(BotEvent::Line(std::mem::take(&mut self.line)));
                }
                self.ready.push_back(BotEvent::Eof);
                self.stdout = None;
                return;
            }
            Ok(n) => n,
            Err(_) => {
                self.ready.push_back(BotEvent::Eof);
                self.stdout = None;
                return;
            }
        };
        let mut buf = &self.chunk[..n];
        while !buf.is_empty() {
            let (take, complete) = match buf.iter().position(|&b| b == b'\n') {
                Some(pos) => (pos, true),
                None => (buf.len(), false),
            };
            if self.line.len() + take > self.max_line {
                let mut head = std::mem::take(&mut self.line);
                head.extend_from_slice(&buf[..take.min(EVIDENCE_BYTES)]);
                head.truncate(EVIDENCE_BYTES);
                self.ready.push_back(BotEvent::TooLong { head });
                self.stdout = None;
                return;
            }
            self.line.extend_from_slice(&buf[..take]);
            buf = &buf[take + complete as usize..];
            if complete {
                self.ready
                    .push_back(BotEvent::Line(std::mem::take(&mut self.line)));
            }
        }
    }
}

/// Reads lines of at most `max_line` bytes into `tx` until EOF, an error or an over-long line:
/// an [`Inbox`] without an exit, served by a task, for readers that want the events on a
/// channel (the property tests of the line reader).
pub fn spawn_reader<R>(stdout: R, max_line: usize, tx: mpsc::Sender<BotEvent>) -> JoinHandle<()>
where
    R: AsyncRead + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        let (_, exit) = mpsc::channel(1);
        let mut inbox = Inbox::new(stdout, max_line, exit);
        inbox.exit = None;
        while let Some(event) = inbox.recv().await {
            if tx.send(event).await.is_err() {
                return;
            }
        }
    })
}

/// The sending side of a bot's stdin. Cheap to clone; every clone feeds the same pipe.
#[derive(Clone, Debug)]
pub struct Writer {
    shared: Arc<WriterShared>,
}

#[derive(Debug)]
struct WriterShared {
    state: Mutex<WriterState>,
    /// Wakes the writer task when lines are queued.
    wake: Notify,
}

#[derive(Debug)]
struct WriterState {
    /// A second descriptor of the pipe (the task owns the first), for direct writes. It shares
    /// the pipe's non-blocking mode. `None` once the pipe failed or the writer was closed.
    fd: Option<OwnedFd>,
    /// Lines not yet written, in order; the first may be partly written already.
    queue: VecDeque<Arc<[u8]>>,
    /// Bytes of `queue[0]` already written.
    written: usize,
}

impl WriterState {
    /// Stops writing for good: the bot is dead or gone. Queued lines are dropped.
    fn close(&mut self) {
        self.fd = None;
        self.queue.clear();
        self.written = 0;
    }
}

impl Writer {
    /// Sends a line; never blocks. Written at once when nothing waits before it and the pipe
    /// has room, else queued for the writer task. Lines to a dead bot are dropped.
    pub fn send(&self, line: Arc<[u8]>) {
        self.write_or_queue(&line, |written| (line.clone(), written));
    }

    /// Sends bytes (one or more whole lines) the caller keeps: written at once when nothing
    /// waits before them and the pipe has room, and only what the pipe does not take is copied
    /// into the queue. The per-move path hands each bot its lines of a move in one call
    /// ([`crate::arbiter::outbox`]): one `write`, no allocation.
    pub fn send_slice(&self, bytes: &[u8]) {
        self.write_or_queue(bytes, |written| (Arc::from(&bytes[written..]), 0));
    }

    /// Writes `bytes` now if nothing is queued, else (and for what the pipe refused) queues
    /// `rest(written)`: the line to queue and how much of it is written already.
    fn write_or_queue(&self, bytes: &[u8], rest: impl FnOnce(usize) -> (Arc<[u8]>, usize)) {
        if bytes.is_empty() {
            return;
        }
        let mut state = self.shared.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(fd) = state.fd.as_ref() else {
            return;
        };
        if !state.queue.is_empty() {
            // The task is on it; the line waits its turn.
            let (line, _) = rest(0);
            state.queue.push_back(line);
            return;
        }
        let written = match write_now(fd.as_raw_fd(), bytes) {
            Ok(n) if n == bytes.len() => return,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
            Err(_) => {
                state.close();
                return;
            }
        };
        let (line, from) = rest(written);
        state.queue.push_back(line);
        state.written = from;
        drop(state);
        self.shared.wake.notify_one();
    }

    /// Stops writing and releases this side's descriptor of the pipe.
    pub fn close(&self) {
        self.shared
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .close();
    }
}

/// One non-blocking `write` (retried on EINTR).
fn write_now(fd: RawFd, buf: &[u8]) -> std::io::Result<usize> {
    loop {
        // SAFETY: writing from a valid buffer to a descriptor the caller keeps open.
        let n = unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) };
        if n >= 0 {
            return Ok(n as usize);
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Serves a bot's stdin: returns the [`Writer`] and the task that writes whatever the pipe
/// could not take at once, until the pipe fails or the writer is closed.
pub fn spawn_writer<W>(mut stdin: W) -> (Writer, JoinHandle<()>)
where
    W: AsyncWrite + AsFd + Unpin + Send + 'static,
{
    // The pipe was set non-blocking by tokio; a duplicate descriptor shares that mode. If the
    // duplicate cannot be made, every line goes through the task.
    let fd = stdin.as_fd().try_clone_to_owned().ok();
    let shared = Arc::new(WriterShared {
        state: Mutex::new(WriterState {
            fd,
            queue: VecDeque::new(),
            written: 0,
        }),
        wake: Notify::new(),
    });
    let task_shared = shared.clone();
    let task = tokio::spawn(async move {
        let shared = task_shared;
        loop {
            let next = {
                let state = shared.state.lock().unwrap_or_else(|p| p.into_inner());
                match state.queue.front() {
                    Some(line) => Some((line.clone(), state.written)),
                    None if state.fd.is_none() => return,
                    None => None,
                }
            };
            let Some((line, from)) = next else {
                // Nothing queued: sleep until `send` queues something (a notification sent
                // before this wait is kept, so none is missed).
                shared.wake.notified().await;
                continue;
            };
            // The line stays first in the queue while it is written, so `send` queues behind it.
            let result = stdin.write(&line[from..]).await;
            let mut state = shared.state.lock().unwrap_or_else(|p| p.into_inner());
            match result {
                Ok(n) if n > 0 && state.fd.is_some() => {
                    state.written += n;
                    if state.written == line.len() {
                        state.queue.pop_front();
                        state.written = 0;
                    }
                }
                _ => {
                    state.close();
                    return;
                }
            }
        }
    });
    (Writer { shared }, task)
}

/// The last bytes a bot wrote to stderr, and how many it wrote in all.
#[derive(Debug, Default)]
pub struct Tail {
    bytes: VecDeque<u8>,
    cap: usize,
    total: u64,
}

impl Tail {
    pub fn new(cap: usize) -> Tail {
        Tail {
            bytes: VecDeque::with_capacity(cap.min(64 * 1024)),
            cap,
            total: 0,
        }
    }

    fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        let chunk = &chunk[chunk.len().saturating_sub(self.cap)..];
        let excess = (self.bytes.len() + chunk.len()).saturating_sub(self.cap);
        self.bytes.drain(..excess);
        self.bytes.extend(chunk);
    }

    /// Forgets the bytes kept (the total written stays).
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// The tail as text (invalid UTF-8 replaced), and the total bytes written.
    pub fn text(&self) -> (String, u64) {
        let (a, b) = self.bytes.as_slices();
        let mut v = a.to_vec();
        v.extend_from_slice(b);
        (String::from_utf8_lossy(&v).into_owned(), self.total)
    }
}

/// Drains stderr into `tail` and, up to `log_cap` bytes, into `log`.
pub fn spawn_stderr<R>(
    mut stderr: R,
    tail: Arc<Mutex<Tail>>,
    mut log: Option<std::fs::File>,
    log_cap: u64,
) -> JoinHandle<()>
where
    R: AsyncRead + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        let mut buf = vec![0u8; 16 * 1024];
        let mut logged = 0u64;
        loop {
            let n = match stderr.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            tail.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(&buf[..n]);
            if let Some(file) = log.as_mut() {
                let room = log_cap.saturating_sub(logged) as usize;
                let keep = n.min(room);
                let _ = file.write_all(&buf[..keep]);
                logged += keep as u64;
                if keep < n {
                    let _ = writeln!(file, "\n[rollarena: log cut at {log_cap} bytes]");
                    log = None;
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_last_bytes() {
        let mut t = Tail::new(5);
        t.push(b"abc");
        t.push(b"defg");
        assert_eq!(t.text(), ("cdefg".to_string(), 7));
        t.push(b"0123456789");
        assert_eq!(t.text(), ("56789".to_string(), 17));
    }

    fn inbox(data: &'static [u8], max_line: usize) -> Inbox {
        let (_tx, rx) = mpsc::channel(1);
        Inbox::new(data, max_line, rx)
    }

    #[tokio::test]
    async fn reader_bounds_lines() {
        let mut rx = inbox(b"one\ntwo\r\nxxxxxxxxxxxxxxxxxxxx\n", 10);
        assert!(matches!(rx.recv().await, Some(BotEvent::Line(l)) if l == b"one"));
        assert!(matches!(rx.recv().await, Some(BotEvent::Line(l)) if l == b"two\r"));
        assert!(matches!(rx.recv().await, Some(BotEvent::TooLong { head }) if head.len() == 20));
        assert!(rx.recv().await.is_none());
    }

    #[tokio::test]
    async fn reader_reports_eof_and_last_unterminated_line() {
        let mut rx = inbox(b"a\nb", 10);
        assert!(matches!(rx.recv().await, Some(BotEvent::Line(l)) if l == b"a"));
        assert!(matches!(rx.recv().await, Some(BotEvent::Line(l)) if l == b"b"));
        assert!(matches!(rx.recv().await, Some(BotEvent::Eof)));
    }

    #[tokio::test]
    async fn lines_come_before_the_exit_and_try_recv_does_not_wait() {
        let (tx, rx) = mpsc::channel(1);
        let mut rx = Inbox::new(&b"a\nb\n"[..], 10, rx);
        tx.send(ExitInfo {
            code: Some(0),
            signal: None,
        })
        .await
        .unwrap();
        assert!(matches!(rx.try_recv(), Some(BotEvent::Line(l)) if l == b"a"));
        assert!(matches!(rx.recv().await, Some(BotEvent::Line(l)) if l == b"b"));
        assert!(matches!(rx.recv().await, Some(BotEvent::Eof)));
        assert!(matches!(rx.try_recv(), Some(BotEvent::Exited(e)) if e.code == Some(0)));
        assert!(rx.try_recv().is_none());
        assert!(rx.recv().await.is_none());
    }

    #[tokio::test]
    async fn a_line_longer_than_a_read_is_whole() {
        let long: &'static [u8] = Box::leak(
            [vec![b'x'; 3 * READ_CHUNK], b"\nend\n".to_vec()]
                .concat()
                .into_boxed_slice(),
        );
        let mut rx = inbox(long, 1 << 20);
        assert!(matches!(rx.recv().await, Some(BotEvent::Line(l)) if l.len() == 3 * READ_CHUNK));
        assert!(matches!(rx.recv().await, Some(BotEvent::Line(l)) if l == b"end"));
    }
}
