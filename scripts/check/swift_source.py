"""Swift source as the check scripts read it: comments and string contents blanked, every newline
and position kept, so line numbers and braces stay where they were. Interpolations (`\\(…)`) may
hold strings of their own; a string keeps its opening and closing quote."""
import re


def blank(text):
    """The source with comments and string contents blanked, lines kept (interpolations too)."""
    out, i, n = [], 0, len(text)

    def skip_string(i, closing):
        """From just inside a string to just past its end; interpolations may hold strings."""
        while i < n:
            if text.startswith(closing, i):
                return i + len(closing)
            if text.startswith("\\(", i):
                depth, i = 1, i + 2
                while i < n and depth:
                    if text[i] == '"':
                        i = skip_string(i + 3, '"""') if text.startswith('"""', i) else skip_string(i + 1, '"')
                        continue
                    depth += {"(": 1, ")": -1}.get(text[i], 0)
                    i += 1
                continue
            i += 2 if text[i] == "\\" else 1
        return n

    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text[i] == '"':
            multi = text.startswith('"""', i)
            j = skip_string(i + (3 if multi else 1), '"""' if multi else '"')
            inside = re.sub(r"[^\n]", " ", text[i + 1:j - 1]) if j - i >= 2 else ""
            out.append('"' + inside + '"' if j - i >= 2 else text[i:j]); i = j
        else:
            out.append(text[i]); i += 1
    return "".join(out)
