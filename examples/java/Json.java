import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for bots (public domain / CC0): the JDK has none, and this keeps the kit
 * free of Maven and downloads.
 *
 * <p>{@code Json.parse(text)} returns {@code Map<String, Object>} for objects, {@code
 * List<Object>} for arrays, {@code String}, {@code Double} for numbers, {@code Boolean}, or
 * {@code null}. The helpers {@code str}, {@code num}, {@code obj} and {@code list} read a member
 * of an object with a fallback when it is absent or of another type.
 */
public final class Json {
    /** The text is not JSON. */
    public static final class Error extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Error(String message) {
            super(message);
        }
    }

    private final String s;
    private int i;

    private Json(String text) {
        this.s = text;
    }

    /** Parses a whole JSON text. */
    public static Object parse(String text) {
        Json p = new Json(text);
        Object v = p.value(0);
        p.skip();
        if (p.i != p.s.length()) throw p.error("trailing characters");
        return v;
    }

    /** The string member {@code key} of an object, or {@code fallback}. */
    public static String str(Object obj, String key, String fallback) {
        Object v = get(obj, key);
        return v instanceof String ? (String) v : fallback;
    }

    /** The number member {@code key} of an object, or {@code fallback}. */
    public static double num(Object obj, String key, double fallback) {
        Object v = get(obj, key);
        return v instanceof Double ? (Double) v : fallback;
    }

    /** The object member {@code key} of an object, or an empty one. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> obj(Object obj, String key) {
        Object v = get(obj, key);
        return v instanceof Map ? (Map<String, Object>) v : new LinkedHashMap<>();
    }

    /** The array member {@code key} of an object, or {@code null} when absent. */
    @SuppressWarnings("unchecked")
    public static List<Object> list(Object obj, String key) {
        Object v = get(obj, key);
        return v instanceof List ? (List<Object>) v : null;
    }

    /** A value written back as JSON (to send a move exactly as the arbiter listed it). */
    public static String write(Object v) {
        if (v == null) return "null";
        if (v instanceof Boolean) return v.toString();
        if (v instanceof Double) {
            double d = (Double) v;
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
        }
        if (v instanceof String) {
            StringBuilder out = new StringBuilder("\"");
            for (char c : ((String) v).toCharArray()) {
                if (c == '"' || c == '\\') out.append('\\').append(c);
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            return out.append('"').toString();
        }
        StringBuilder out = new StringBuilder();
        if (v instanceof List) {
            out.append('[');
            for (Object item : (List<?>) v) out.append(out.length() > 1 ? "," : "").append(write(item));
            return out.append(']').toString();
        }
        out.append('{');
        for (Map.Entry<?, ?> m : ((Map<?, ?>) v).entrySet()) {
            out.append(out.length() > 1 ? "," : "").append(write(m.getKey())).append(':').append(write(m.getValue()));
        }
        return out.append('}').toString();
    }

    /** The member {@code key} of an object, or {@code null}. */
    public static Object get(Object obj, String key) {
        return obj instanceof Map ? ((Map<?, ?>) obj).get(key) : null;
    }

    private Error error(String what) {
        return new Error("bad JSON at " + i + ": " + what);
    }

    private void skip() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
            i++;
        }
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private boolean literal(String word) {
        if (!s.startsWith(word, i)) return false;
        i += word.length();
        return true;
    }

    private Object value(int depth) {
        if (depth > 64) throw error("nested too deep");
        skip();
        char c = peek();
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            i++;
            skip();
            if (peek() == '}') {
                i++;
                return map;
            }
            while (true) {
                skip();
                if (peek() != '"') throw error("expected a member name");
                String key = string();
                skip();
                if (peek() != ':') throw error("expected ':'");
                i++;
                map.put(key, value(depth + 1));
                skip();
                if (peek() == ',') {
                    i++;
                } else if (peek() == '}') {
                    i++;
                    return map;
                } else {
                    throw error("expected ',' or '}'");
                }
            }
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            i++;
            skip();
            if (peek() == ']') {
                i++;
                return list;
            }
            while (true) {
                list.add(value(depth + 1));
                skip();
                if (peek() == ',') {
                    i++;
                } else if (peek() == ']') {
                    i++;
                    return list;
                } else {
                    throw error("expected ',' or ']'");
                }
            }
        }
        if (c == '"') return string();
        if (literal("true")) return Boolean.TRUE;
        if (literal("false")) return Boolean.FALSE;
        if (literal("null")) return null;
        if (c == '-' || (c >= '0' && c <= '9')) {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            try {
                return Double.parseDouble(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw error("bad number");
            }
        }
        throw error("unexpected character");
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        i++; // the opening quote
        while (true) {
            if (i >= s.length()) throw error("unterminated string");
            char c = s.charAt(i++);
            if (c == '"') return out.toString();
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (i >= s.length()) throw error("unterminated string");
            c = s.charAt(i++);
            switch (c) {
                case 'n': out.append('\n'); break;
                case 't': out.append('\t'); break;
                case 'r': out.append('\r'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'u':
                    if (i + 4 > s.length()) throw error("short \\u escape");
                    try {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException e) {
                        throw error("bad \\u escape");
                    }
                    i += 4;
                    break;
                default: out.append(c); // \" \\ \/
            }
        }
    }
}
