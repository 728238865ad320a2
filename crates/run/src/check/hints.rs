//! The hints a failed check item prints: the usual cause of each mistake and how to fix it,
//! in the words of a bot author. Plain text, one constant or small function per cause, so the
//! wording lives in one place and the tests can look for it.

/// Nothing arrived at all, even after a grace period (kept beside the forfeit notes, which
/// give it too, on a start-up forfeit with nothing received).
pub use crate::record::notes::SILENT;

/// Nothing arrived, though earlier answers did.
pub const NO_ANSWER: &str = "Nothing arrived, though the bot's earlier answers did (so its \
output is flushed). It is stuck (waiting for something the arbiter will not send, or reading \
more than one line), thinking longer than the limit, or it ignored this request.";

/// Lines arrived after the request, but none was the answer.
pub fn not_the_answer(asked: &str) -> String {
    format!(
        "Lines arrived (the exchange shows them), so the output is flushed; but none was a \
         {asked} message. Every answer is one JSON object on one line with \"type\": \"{asked}\" \
         (protocol/SPEC.md §5). In a match, a line that is not a protocol message while a move \
         is asked is a refused attempt, answered with illegal; a move naming another turn_id is \
         ignored."
    )
}

/// Bytes arrived without the newline that ends a message.
pub const NO_NEWLINE: &str = "The answer arrived without a newline after it: the arbiter reads \
whole lines, so it never saw a complete message. End every message with \"\\n\" (println, \
print, puts, std::endl), then flush.";

/// The answer came after the time limit.
pub fn late(ms: f64, limit_ms: u128) -> String {
    format!(
        "The answer came after {ms:.0} ms, over the limit of {limit_ms} ms: in a match that \
         forfeits the round. Do heavy set-up before answering hello only if it fits in \
         startup_ms, and keep each move well under move_ms (a turn's time_ms says what is left; \
         leave room for the pipe and the scheduler). Flags --startup and --time set the limits \
         of this check to those of your contest."
    )
}

/// A line on stdout that is not a protocol message.
pub const JUNK: &str = "Everything on stdout goes to the arbiter, which expects one JSON \
message per line: a debug print there is refused as an answer (it costs one of your retries) \
or counted against you. Log to stderr instead: Python print(..., file=sys.stderr); C \
fprintf(stderr, ...); C++ std::cerr; Java System.err.println; Node console.error; Rust \
eprintln!. Or send {\"type\":\"log\",\"text\":\"...\"}, which the record keeps.";

/// A `move` message the protocol refuses.
pub const BAD_MOVE: &str = "Answer a turn with one line like {\"type\":\"move\",\"move\":\"d3\"} \
(optionally with the turn's \"turn_id\"): \"type\" and \"move\" are required, the move is a \
square name in a string.";

/// A `ready` message the protocol refuses.
pub const BAD_READY: &str = "Answer hello with one line like \
{\"type\":\"ready\",\"name\":\"mybot\",\"version\":\"1.0\"}: \"name\" is a non-empty string.";

/// A move the rules refuse, in a game that lists the legal moves.
pub const ILLEGAL: &str = "Pick one of the moves listed in the request's \"legal\" (each is the \
move's text exactly as the rules write it), or compute them from the request's \"state\" as \
the game's page in protocol/games/ says.";

/// A move that names another turn.
pub fn wrong_turn_id(sent: u64, wanted: u64) -> String {
    format!(
        "The move named turn_id {sent}, but the turn being asked was {wanted}: a move that \
         names another turn is ignored as a late answer. Echo the turn_id of the turn you \
         answer (and keep it for an illegal message, which carries the same one), or leave \
         turn_id out."
    )
}

/// A message nobody asked for.
pub const UNASKED: &str = "Answer only turn and illegal with a move, and hello with ready, \
once each. Other messages (start, played, end) need no answer: an unasked line is ignored but \
counted, a flood of them forfeits, and a move sent early may be taken as the answer to your \
next turn.";

/// The process exited with a non-zero status or a signal.
pub const CRASHED: &str = "The bot died; its stderr (below) usually says why. A bot must \
keep reading lines and answering until bye: read every message, ignore the types and fields it \
does not need, and catch its own errors.";

/// The process exited with status 0 before `bye`.
pub const EXITED_EARLY: &str = "The bot exited by itself (status 0) before bye: its reading \
loop ended too early. Keep reading until bye: a match has several rounds (end is followed by \
another start), and messages of types it does not know must be skipped, not end the loop.";

/// stdout closed, the process kept running.
pub const CLOSED_STDOUT: &str = "The bot closed its stdout but kept running: the arbiter can \
no longer hear it. Keep stdout open until bye.";

/// A line over the limit.
pub const LINE_TOO_LONG: &str = "A line longer than the limit arrived: one message per line, \
and a newline after each (a missing newline makes every message one endless line).";

/// Too many unasked lines or log bytes.
pub const FLOOD: &str = "Too many lines nobody asked for, or too many log bytes, in one \
round: log to stderr, and answer each request once.";

/// The program could not be started.
pub const CANNOT_START: &str = "Check the command: the program must exist and be executable \
(chmod +x), or name its interpreter first (\"/usr/bin/python3 bot.py\"). Bots may run as \
another user (nobody) in contests: use system paths, not files under your home.";

/// The bot kept running after `bye`.
pub fn no_exit(grace_ms: u128) -> String {
    format!(
        "The bot was still running {grace_ms} ms after bye and was killed: exit as soon as you \
         read bye (and when stdin ends: a read that returns nothing means the arbiter is gone). \
         Stop any threads you started, or make them daemon threads."
    )
}

/// The bot exited after `bye` with a failure status.
pub const BAD_EXIT: &str = "The bot exited after bye, but not cleanly. The arbiter does not judge \
the status, but a failure status or a signal at bye usually means the bot crashed on it: exit \
with status 0 (return from main) once you read bye. Its stderr (below) may say why.";

/// Context added when a problem appears in the second round or later.
pub const ROUNDS: &str = "A match has several rounds in one process: after end comes start: \
reset your board and take your colour from the new start (colours rotate every round); only bye \
ends the match.";

/// Context added when a problem appears right after `played` messages.
pub const PLAYED: &str = "The arbiter sends played after every move (to every bot, for other \
seats and for your own, and by_arbiter: true when it played for a forfeited seat). Read it (or \
ignore it), never answer it, and never die on it.";

/// Context added when a problem appears while the bot plays on a time bank.
pub const BANK: &str = "With a time bank, a turn's time_ms is what this one answer may take (the \
cap, or what the bank holds where that is less) and bank_ms is what is left for the rest of the \
round: plan each answer from bank_ms (say bank_ms divided by the moves you still expect to \
make, plus the increment from hello), not from time_ms, or the bank runs out and the bot \
forfeits the round on time (protocol/SPEC.md §6.2).";

/// Context added when a problem appears right after a refusal.
pub const REFUSAL: &str = "An illegal message is itself the request for another move, on the \
same clock: no new turn follows. Answer it with a move for the position of the last turn (the \
same square is allowed if you believe it legal; better, try another).";
