// The hostile team's build-time code (tests/arena/hostile/build_time.rs): an annotation
// processor that javac finds on its class path (the build directory: `META-INF/services/
// javax.annotation.processing.Processor` names it) and runs inside the build of the Java kit.
// Once, in its first round, it tries what a build must not do and prints, in one write between
// "HOSTILE BUILD BEGIN" and "HOSTILE BUILD END", what it got into the build log:
//
//   READ path (n bytes): ...  /  DENIED path: why   another team's sources and builds, the
//                                                   arena's database and records;
//   PROC pid cmdline          every process it can see;
//   NET host:port connected: the answer  /  NET host:port refused: why
//                                                   the server's port on loopback (the test
//                                                   tells it in targets.txt, as if guessed);
//   SIGNAL pid delivered  /  SIGNAL pid refused: why
//                                                   SIGTERM to the server's pid (told too),
//                                                   by kill(1) and by ProcessHandle;
//
// and a line of HTML, which the build log's page must show as text.

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

@SupportedAnnotationTypes("*")
public class HostileProcessor extends AbstractProcessor {
    private boolean done;
    private final StringBuilder out = new StringBuilder();

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment env) {
        if (done) {
            return false;
        }
        done = true;
        out.append("HOSTILE BUILD BEGIN\n");
        try {
            attack();
        } catch (Throwable t) {
            say("FAILED " + t);
        }
        say("<script>alert('build log')</script>");
        out.append("HOSTILE BUILD END\n");
        System.err.print(out);
        System.err.flush();
        return false;
    }

    private void say(String line) {
        out.append(line.replace('\n', ' ')).append('\n');
    }

    private static String excerpt(byte[] data) {
        String s = new String(data, 0, Math.min(data.length, 300), StandardCharsets.UTF_8);
        return s.replace('\n', ' ');
    }

    private void grab(Path path) {
        try {
            if (Files.isDirectory(path)) {
                List<String> names = new ArrayList<>();
                try (DirectoryStream<Path> dir = Files.newDirectoryStream(path)) {
                    for (Path p : dir) {
                        names.add(p.getFileName().toString());
                    }
                }
                say("READ " + path + " (list): " + names);
            } else {
                byte[] data = Files.readAllBytes(path);
                say("READ " + path + " (" + data.length + " bytes): " + excerpt(data));
            }
        } catch (Exception e) {
            say("DENIED " + path + ": " + e);
        }
    }

    private void attack() throws Exception {
        Path cwd = Paths.get("").toAbsolutePath();
        Path arena = cwd.getParent().getParent();
        say("BUILDING IN " + cwd);
        say("ARENA " + arena);
        String port = "0";
        String pid = "0";
        for (String line : Files.readAllLines(cwd.resolve("targets.txt"))) {
            String[] kv = line.trim().split(" ");
            if (kv.length == 2 && kv[0].equals("port")) {
                port = kv[1];
            } else if (kv.length == 2 && kv[0].equals("pid")) {
                pid = kv[1];
            }
        }

        // Another team's sources and builds, the database, the settings, the records.
        for (String sub : new String[] {"arena.db", "arena.db-wal", "versions", "records"}) {
            grab(arena.resolve(sub));
        }
        for (int n = 1; n <= 4; n++) {
            Path v = arena.resolve("versions").resolve(Integer.toString(n));
            for (String sub : new String[] {"", "source", "source/bot.py", "build/bot.py",
                    "build.log", "check.json"}) {
                grab(sub.isEmpty() ? v : v.resolve(sub));
            }
            grab(arena.resolve("records").resolve(n + ".jsonl"));
        }

        // Every process it can see.
        int seen = 0;
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Paths.get("/proc"))) {
            for (Path p : proc) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                seen++;
                try {
                    byte[] cmd = Files.readAllBytes(p.resolve("cmdline"));
                    say("PROC " + name + " " + excerpt(cmd).replace('\0', ' '));
                } catch (Exception e) {
                    say("PROC " + name + " unreadable: " + e);
                }
            }
        }
        say("PROCESSES seen " + seen);

        // The server on loopback.
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(port)), 3000);
            s.setSoTimeout(3000);
            OutputStream o = s.getOutputStream();
            o.write("GET /api/submissions/1 HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream i = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            i.transferTo(got);
            say("NET 127.0.0.1:" + port + " connected: " + excerpt(got.toByteArray()));
        } catch (Exception e) {
            say("NET 127.0.0.1:" + port + " refused: " + e);
        }

        // SIGTERM to the server, two ways.
        try {
            Process kill = new ProcessBuilder("kill", "-TERM", pid).redirectErrorStream(true).start();
            byte[] said = kill.getInputStream().readAllBytes();
            int code = kill.waitFor();
            say(code == 0 ? "SIGNAL " + pid + " delivered by kill"
                    : "SIGNAL " + pid + " refused: kill exited " + code + ": " + excerpt(said));
        } catch (Exception e) {
            say("SIGNAL " + pid + " refused: kill did not run: " + e);
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(Long.parseLong(pid));
        if (handle.isPresent()) {
            try {
                boolean sent = handle.get().destroy();
                say(sent ? "SIGNAL " + pid + " delivered by ProcessHandle"
                        : "SIGNAL " + pid + " refused: ProcessHandle.destroy() said no");
            } catch (Exception e) {
                say("SIGNAL " + pid + " refused: " + e);
            }
        } else {
            say("SIGNAL " + pid + " refused: no such process in sight");
        }
    }
}
