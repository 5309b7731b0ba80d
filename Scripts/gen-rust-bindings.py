#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the SDK's Rust bindings, Sources/HudRendererAPI/bindings/rust/hud_renderer.rs,
from the topic headers in Sources/HudRendererAPI/include/hud/ (hud_abi.h,
hud_metadata.h): every constant, typedef, structure (#[repr(C)]) and function
pointer type (Option<unsafe extern "C" fn(...)>), with the headers' comments,
and the headers' size assertions as compile-time assertions. A fixed tail,
written here rather than parsed, holds the Rust counterparts of the headers'
function-like macros, inline functions and hud_helpers.h.

    Scripts/gen-rust-bindings.py            rewrite the committed file
    Scripts/gen-rust-bindings.py --check    exit 1 with a diff if it is stale
    Scripts/gen-rust-bindings.py --output PATH

Python 3 standard library only. The parser knows the headers' own C subset
(the style Docs/ABI.md describes) and stops with an error on anything else,
so a header change it does not understand cannot produce wrong bindings in
silence. Tests/HudRendererAPITests/RustBindingsTests.swift compiles a C and a
Rust program that print every size, offset and constant, and compares them.
"""
import argparse
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "Sources/HudRendererAPI/include/hud"
HEADERS = ["hud_abi.h", "hud_metadata.h"]
OUTPUT = ROOT / "Sources/HudRendererAPI/bindings/rust/hud_renderer.rs"

SCALARS = {
    "uint8_t": "u8", "uint16_t": "u16", "uint32_t": "u32", "uint64_t": "u64",
    "int8_t": "i8", "int16_t": "i16", "int32_t": "i32", "int64_t": "i64",
    "size_t": "usize", "double": "f64", "float": "f32", "int": "core::ffi::c_int",
    "char": "core::ffi::c_char", "void": "core::ffi::c_void",
}
RUST_KEYWORDS = {
    "as", "async", "await", "box", "break", "const", "continue", "crate", "do", "dyn", "else", "enum", "extern",
    "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut",
    "override", "priv", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "try",
    "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
}


class HeaderError(Exception):
    pass


# --------------------------------------------------------------------------
# Lexing: code tokens, comments and preprocessor lines, with line numbers.
# --------------------------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<comment>/\*.*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)*')
  | (?P<number>(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)[uUlLfF]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct><<|>>|==|!=|<=|>=|&&|\|\||[{}()\[\];,*=<>|&^~+\-/%!?:.])
""", re.S | re.X)


class Token:
    def __init__(self, kind, text, line, end_line=None):
        self.kind, self.text, self.line = kind, text, line
        self.end_line = end_line if end_line is not None else line
        self.trailing = False  # a comment after code on its first line

    def __repr__(self):
        return f"{self.kind}:{self.text!r}@{self.line}"


def lex(text, name):
    tokens = []
    position, line, length = 0, 1, len(text)
    at_line_start = True
    while position < length:
        char = text[position]
        if char == "\n":
            line += 1
            position += 1
            at_line_start = True
            continue
        if char in " \t\r\f\v":
            position += 1
            continue
        if char == "#" and at_line_start:
            # A directive: up to the end of the line, joining continuations;
            # comments inside it are kept apart as its documentation.
            end, start_line = position, line
            while end < length and text[end] != "\n":
                if text.startswith("/*", end):
                    close = text.find("*/", end + 2)
                    if close < 0:
                        raise HeaderError(f"{name}:{line}: unterminated comment")
                    end = close + 2
                elif text[end] == "\\" and end + 1 < length and text[end + 1] == "\n":
                    end += 2
                else:
                    end += 1
            raw = text[position:end]
            line += raw.count("\n")
            tokens.append(Token("pp", raw, start_line, line))
            position = end
            continue
        match = TOKEN.match(text, position)
        if not match:
            raise HeaderError(f"{name}:{line}: unexpected character {char!r}")
        kind = match.lastgroup
        value = match.group()
        token = Token(kind, value, line, line + value.count("\n"))
        if kind == "comment":
            token.trailing = bool(tokens) and tokens[-1].kind != "comment" and tokens[-1].end_line == line
        tokens.append(token)
        line = token.end_line
        position = match.end()
        at_line_start = False
    return tokens


def comment_text(raw):
    """The text of a /* ... */ comment, dedented, one string per line."""
    body = raw[2:-2]
    lines = body.split("\n")
    cleaned = []
    for index, text in enumerate(lines):
        text = text.rstrip()
        if index > 0:
            stripped = text.lstrip()
            if stripped.startswith("* ") or stripped == "*":
                text = stripped[2:] if stripped.startswith("* ") else ""
            elif stripped.startswith("*") and not stripped.startswith("*/"):
                text = stripped[1:]
            else:
                text = text.strip() if index == len(lines) - 1 else text
        cleaned.append(text)
    while cleaned and not cleaned[0].strip():
        cleaned.pop(0)
    while cleaned and not cleaned[-1].strip():
        cleaned.pop()
    if not cleaned:
        return []
    first = cleaned[0].strip()
    rest = cleaned[1:]
    # Continuation lines of a trailing comment are aligned under its start.
    indents = [len(t) - len(t.lstrip()) for t in rest if t.strip()]
    common = min(indents) if indents else 0
    return [first] + [t[common:] for t in rest]


def is_banner(raw):
    return re.fullmatch(r"/\*\s*-+\s*\*/", raw) is not None


# --------------------------------------------------------------------------
# Constant expressions
# --------------------------------------------------------------------------

CAST = re.compile(r"\(\s*(u?int(?:8|16|32|64)_t|hud_[a-z_]+_t)\s*\)")
NUMBER = re.compile(r"\b(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\b")


class Model:
    def __init__(self):
        self.items = []           # (kind, payload) in header order
        self.constants = {}       # name -> (rust type, value)
        self.functions = {}       # function-like macro name -> (params, body)
        self.scalars = {}         # typedef name -> underlying C scalar
        self.structs = {}         # typedef name -> True
        self.tags = {}            # struct tag -> typedef name
        self.fn_types = set()     # typedefs of function pointers

    # Expands object-like and function-like macros in an expression.
    def expand(self, text, depth=0):
        if depth > 20:
            raise HeaderError(f"macro expansion too deep: {text}")
        result, position = [], 0
        for match in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text):
            name = match.group()
            if match.start() < position:
                continue
            result.append(text[position:match.start()])
            position = match.end()
            if name in self.functions:
                params, body = self.functions[name]
                open_at = text.find("(", position)
                if open_at < 0 or text[position:open_at].strip():
                    raise HeaderError(f"{name} used without arguments in {text}")
                level, index, args, current = 0, open_at, [], ""
                while index < len(text):
                    char = text[index]
                    if char == "(":
                        level += 1
                        if level > 1:
                            current += char
                    elif char == ")":
                        level -= 1
                        if level == 0:
                            args.append(current)
                            break
                        current += char
                    elif char == "," and level == 1:
                        args.append(current)
                        current = ""
                    else:
                        current += char
                    index += 1
                if len(args) != len(params):
                    raise HeaderError(f"{name} takes {len(params)} arguments: {text}")
                substituted = body
                for param, arg in zip(params, args):
                    substituted = re.sub(r"\b%s\b" % re.escape(param), "(" + arg.strip() + ")", substituted)
                result.append("(" + self.expand(substituted, depth + 1) + ")")
                position = index + 1
            elif name in self.constants:
                result.append("(" + str(self.constants[name][1]) + ")")
            else:
                result.append(name)
        result.append(text[position:])
        return "".join(result)

    def evaluate(self, text):
        """(rust type, value) of an integer constant expression, or None."""
        expanded = self.expand(text)
        unsigned = bool(re.search(r"\b(0[xX][0-9a-fA-F]+|[0-9]+)[lL]*[uU]", expanded)) or \
            bool(re.search(r"\(\s*uint(8|16|32|64)_t\s*\)", expanded))
        bare = CAST.sub(" ", expanded)
        bare = NUMBER.sub(lambda m: str(int(m.group(1), 0)), bare)
        if not re.fullmatch(r"[0-9\s()|&^~+\-*%<>]*", bare) or not re.search(r"[0-9]", bare):
            return None
        try:
            value = eval(bare, {"__builtins__": {}}, {})  # digits and operators only, checked above
        except SyntaxError as error:
            raise HeaderError(f"cannot evaluate {text}: {error}")
        if unsigned:
            if not 0 <= value <= 0xFFFFFFFF:
                value &= 0xFFFFFFFF
            return "u32", value
        if not -(1 << 31) <= value < (1 << 31):
            raise HeaderError(f"{text} = {value} does not fit a C int")
        return "i32", value


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------

class Parser:
    def __init__(self, model, name, tokens):
        self.model, self.name, self.tokens = model, name, tokens
        self.index = 0
        self.conditions = []      # stack of (active, cfg64)
        self.last_scalar = None   # the typedef right before an enum
        self.pending_section = None
        self.doc_line = 0         # where the last doc_before() started
        self.emitted = set()      # indices of directives that became items
        self.last_end = 0         # the last line of the last item

    def error(self, token, message):
        raise HeaderError(f"{self.name}:{token.line}: {message}")

    def active(self):
        return all(active for active, _, _ in self.conditions)

    def cfg64(self):
        return any(cfg for _, cfg, _ in self.conditions)

    def doc_before(self, index):
        """Comments directly above tokens[index] (no blank line between),
        also across adjacent #defines that are not items (a function-like
        macro documented together with the constant below it)."""
        docs, line, cursor = [], self.tokens[index].line, index - 1
        while cursor >= 0:
            token = self.tokens[cursor]
            if token.end_line < line - 1:
                break
            if token.kind == "pp" and re.match(r"\s*#\s*define\b", token.text) and cursor not in self.emitted:
                line = token.line
                cursor -= 1
                continue
            if token.kind != "comment" or token.trailing or is_banner(token.text):
                break
            docs = comment_text(token.text) + ([""] if docs else []) + docs
            line = token.line
            cursor -= 1
        self.doc_line = line if docs else self.tokens[index].line
        return docs

    def doc_after(self, index):
        """A comment trailing the code that ends at tokens[index]."""
        cursor = index + 1
        if cursor < len(self.tokens) and self.tokens[cursor].kind == "comment" and self.tokens[cursor].trailing:
            return comment_text(self.tokens[cursor].text)
        return []

    def emit(self, kind, payload, start, end):
        """Adds an item spanning lines start...end; a blank line in the
        header before it is kept."""
        if self.pending_section:
            self.model.items.append(("section", self.pending_section))
            self.pending_section = None
        elif start > self.last_end + 1:
            self.model.items.append(("blank", None))
        self.last_end = end
        self.model.items.append((kind, payload))

    def run(self):
        tokens = self.tokens
        while self.index < len(tokens):
            token = tokens[self.index]
            if token.kind == "pp":
                self.directive(token)
                self.index += 1
                continue
            if token.kind == "comment":
                self.section_title(self.index)
                self.index += 1
                continue
            if not self.active():
                self.index += 1
                continue
            self.declaration()
        if self.conditions:
            raise HeaderError(f"{self.name}: unterminated #if")

    def section_title(self, index):
        """/* ---- */ /* Title */ /* ---- */ starts a section."""
        tokens = self.tokens
        if (is_banner(tokens[index].text) and index + 2 < len(tokens) and tokens[index + 1].kind == "comment"
                and is_banner(tokens[index + 2].text) and self.active()):
            title = " ".join(comment_text(tokens[index + 1].text)).strip()
            self.pending_section = title

    def directive(self, token):
        raw = re.sub(r"/\*.*?\*/", " ", token.text, flags=re.S).replace("\\\n", " ")
        doc = []
        for comment in re.findall(r"/\*.*?\*/", token.text, flags=re.S):
            doc += comment_text(comment)
        match = re.match(r"\s*#\s*(\w+)\s*(.*)", raw, re.S)
        if not match:
            self.error(token, "malformed directive")
        word, rest = match.group(1), match.group(2).strip()
        if word in ("ifdef", "ifndef", "if"):
            if rest == "__cplusplus" and word != "if":
                # The C++ guards (extern "C", static_assert): C is read.
                self.conditions.append((word == "ifndef", False, "c++"))
            elif word == "if" and re.fullmatch(r"UINTPTR_MAX\s*==\s*UINT64_MAX", rest):
                self.conditions.append((True, True, "64-bit"))
            else:
                # Include guards and feature tests (__has_attribute, __ELF__):
                # every branch is read; they only define macros that are not
                # constants (a constant defined twice is an error below).
                self.conditions.append((True, False, "feature"))
        elif word in ("elif", "else"):
            if not self.conditions:
                self.error(token, f"#{word} without #if")
            active, cfg, kind = self.conditions.pop()
            if kind == "c++" and word == "else":
                self.conditions.append((not active, cfg, kind))
            elif kind == "feature":
                self.conditions.append((True, cfg, kind))
            else:
                self.error(token, f"#{word} in a {kind} block is not supported")
        elif word == "endif":
            if not self.conditions:
                self.error(token, "#endif without #if")
            self.conditions.pop()
        elif word == "include":
            pass
        elif word == "define":
            if self.active():
                self.define(token, rest, doc)
        else:
            self.error(token, f"unsupported directive #{word}")

    def define(self, token, rest, doc):
        function = re.match(r"([A-Za-z_]\w*)\(([^)]*)\)\s*(.*)", rest, re.S)
        if function:
            params = [p.strip() for p in function.group(2).split(",") if p.strip()]
            self.model.functions[function.group(1)] = (params, function.group(3).strip())
            return
        object_like = re.match(r"([A-Za-z_]\w*)\s*(.*)", rest, re.S)
        name, value = object_like.group(1), object_like.group(2).strip()
        if not value or not name.startswith("HUD_"):
            return  # include guards, internal switches
        doc = self.doc_before(self.index) + doc
        start = self.doc_line
        if re.fullmatch(r'"(?:[^"\\]|\\.)*"', value):
            self.add_constant(token, name, "&str", value, doc, value, start)
            return
        evaluated = self.model.evaluate(value)
        if evaluated is None:
            return  # attributes, the entry symbol's identifier: not constants
        rust_type, number = evaluated
        self.add_constant(token, name, rust_type, number, doc, value, start)

    def add_constant(self, token, name, rust_type, value, doc, source, start):
        if name in self.model.constants:
            self.error(token, f"{name} is defined twice; the bindings cannot tell which one holds")
        self.model.constants[name] = (rust_type, value)
        self.emitted.add(self.index)
        self.emit("const", dict(name=name, type=rust_type, value=value, doc=doc, source=source), start, token.end_line)

    # --- declarations -----------------------------------------------------

    def statement(self):
        """Tokens up to the next top-level ';' (braces balanced), comments dropped."""
        start, depth, body = self.index, 0, []
        while self.index < len(self.tokens):
            token = self.tokens[self.index]
            if token.kind == "pp":
                self.error(token, "a directive inside a declaration")
            if token.kind != "comment":
                body.append((self.index, token))
                if token.text in "{(":
                    depth += 1
                elif token.text in "})":
                    depth -= 1
                elif token.text == ";" and depth == 0:
                    self.index += 1
                    return start, body
            self.index += 1
        self.error(self.tokens[start], "unterminated declaration")

    def skip_function(self):
        depth = 0
        while self.index < len(self.tokens):
            text = self.tokens[self.index].text
            if self.tokens[self.index].kind == "punct":
                if text == "{":
                    depth += 1
                elif text == "}":
                    depth -= 1
                    if depth == 0:
                        self.index += 1
                        return
            self.index += 1

    def declaration(self):
        token = self.tokens[self.index]
        text = token.text
        if text == "static":  # static inline functions: hand-written below
            self.skip_function()
            self.last_scalar = None
            return
        if text == "extern":  # extern "C" { } only ever inside #ifdef __cplusplus
            self.error(token, "extern outside the C++ guards")
        if text == "HUD_STATIC_ASSERT":
            start, body = self.statement()
            self.span = (token.line, body[-1][1].end_line)
            self.static_assert(token, [t for _, t in body])
            self.last_scalar = None
            return
        if text == "HUD_EXPORT":
            self.statement()  # the entry prototype: a plugin defines it
            self.last_scalar = None
            return
        start, body = self.statement()
        words = [t.text for _, t in body]
        doc = self.doc_before(start)
        self.span = (self.doc_line, body[-1][1].end_line)
        if words[0] == "typedef":
            self.typedef(token, body, doc)
        elif words[0] == "struct":
            self.struct(token, body, doc, words[1], None)
            self.last_scalar = None
        elif words[0] == "enum":
            self.enum(token, body)
            self.last_scalar = None
        else:
            self.error(token, f"unsupported declaration starting with {text!r}")

    def typedef(self, token, body, doc):
        words = [t.text for _, t in body]
        if words[1] == "struct" and "{" in words:
            self.struct(token, body[1:], doc, words[2], words[-2])
            self.last_scalar = None
            return
        if words[1] == "struct" and len(words) == 5:
            self.model.tags[words[2]] = words[3]  # forward declaration
            self.model.structs[words[3]] = True
            self.last_scalar = None
            return
        if "(" in words and words[words.index("(") + 1] == "*":
            open_at = words.index("(")
            name = words[open_at + 2]
            ret = words[1:open_at]
            params = self.params(token, words[open_at + 5:-2])
            self.model.fn_types.add(name)
            self.emit("fn_type", dict(name=name, ret=self.c_type(token, ret), params=params, doc=doc), *self.span)
            self.last_scalar = None
            return
        if len(words) == 4 and words[1] in SCALARS:
            self.model.scalars[words[2]] = words[1]
            self.emit("scalar", dict(name=words[2], c=words[1], doc=doc), *self.span)
            self.last_scalar = words[2]
            return
        self.error(token, f"unsupported typedef: {' '.join(words)}")

    def enum(self, token, body):
        inner = body[2:-2] if body[1][1].text == "{" else None
        if inner is None or body[-2][1].text != "}":
            self.error(token, "only anonymous enums are supported")
        rust_type = self.last_scalar
        if rust_type is None:
            self.error(token, "an enum must follow the typedef that names its type")
        groups, current = [], []
        for entry in inner:
            if entry[1].text == ",":
                groups.append(current)
                current = []
            else:
                current.append(entry)
        if current:
            groups.append(current)
        previous = -1
        for group in groups:
            first_index, first = group[0]
            name = first.text
            if len(group) >= 3 and group[1][1].text == "=":
                evaluated = self.model.evaluate(" ".join(t.text for _, t in group[2:]))
                if evaluated is None:
                    self.error(first, f"cannot evaluate {name}")
                value = evaluated[1]
            elif len(group) == 1:
                value = previous + 1
            else:
                self.error(first, f"malformed enumerator {name}")
            previous = value
            last_index = group[-1][0]
            # The comma (if any) ends the enumerator; a trailing comment follows it.
            after = last_index + 1
            while after < len(self.tokens) and self.tokens[after].kind == "comment" and not self.tokens[after].trailing:
                after += 1
            trailing = self.doc_after(after if after < len(self.tokens) and self.tokens[after].text == "," else last_index)
            doc = self.doc_before(first_index) + trailing
            if name in self.model.constants:
                self.error(first, f"{name} is defined twice")
            self.model.constants[name] = ("i32", value)
            self.emit("const", dict(name=name, type=rust_type, value=value, doc=doc, source=None), self.doc_line, group[-1][1].end_line)

    def struct(self, token, body, doc, tag, alias):
        words = [t.text for _, t in body]
        open_at = words.index("{")
        close_at = len(words) - 1 - words[::-1].index("}")
        name = alias or self.model.tags.get(tag)
        if name is None:
            self.error(token, f"struct {tag} has no typedef name")
        self.model.structs[name] = True
        fields, current = [], []
        for entry in body[open_at + 1:close_at]:
            current.append(entry)
            if entry[1].text == ";":
                fields.append(self.field(current))
                current = []
        if current:
            self.error(token, f"struct {tag}: a field without ';'")
        self.emit("struct", dict(name=name, fields=fields, doc=doc), *self.span)

    def field(self, entries):
        first_index, first = entries[0]
        last_index = entries[-1][0]
        words = [t.text for _, t in entries[:-1]]
        doc = self.doc_before(first_index) + self.doc_after(last_index)
        if "(" in words and words[words.index("(") + 1] == "*":
            open_at = words.index("(")
            name = words[open_at + 2]
            ret = self.c_type(first, words[:open_at])
            params = self.params(first, words[open_at + 5:-1])
            return dict(name=name, type=fn_pointer(ret, params), doc=doc)
        array = None
        if words[-1] == "]":
            open_at = words.index("[")
            array = " ".join(words[open_at + 1:-1])
            words = words[:open_at]
        name = words[-1]
        rust = self.c_type(first, words[:-1])
        if array is not None:
            if array in self.model.constants:
                length = f"{array} as usize"
            elif re.fullmatch(r"[0-9]+", array):
                length = array
            else:
                self.error(first, f"unsupported array length {array}")
            rust = f"[{rust}; {length}]"
        return dict(name=name, type=rust, doc=doc)

    def params(self, token, words):
        if words == ["void"] or not words:
            return []
        groups, current, depth = [], [], 0
        for word in words:
            if word == "," and depth == 0:
                groups.append(current)
                current = []
                continue
            depth += word == "("
            depth -= word == ")"
            current.append(word)
        groups.append(current)
        params = []
        for group in groups:
            named = len(group) >= 2 and re.fullmatch(r"[A-Za-z_]\w*", group[-1]) and group[-1] not in SCALARS \
                and group[-1] not in self.model.scalars and group[-1] not in self.model.structs and group[-1] != "const"
            name = group[-1] if named else None
            params.append((rust_name(name) if name else None, self.c_type(token, group[:-1] if named else group)))
        return params

    def c_type(self, token, words):
        """A C type (base type, const, '*'s) as Rust."""
        words = list(words)
        if not words:
            self.error(token, "a declaration without a type")
        base_const = False
        while words and words[0] == "const":
            base_const = True
            words.pop(0)
        base = words.pop(0)
        while words and words[0] == "const":
            base_const = True
            words.pop(0)
        if base in SCALARS:
            rust = SCALARS[base]
            if base == "void" and not words:
                return None
        elif base in self.model.scalars or base in self.model.structs or base in self.model.fn_types:
            rust = base
        else:
            self.error(token, f"unknown type {base}")
        pointee_const = base_const
        while words:
            word = words.pop(0)
            if word != "*":
                self.error(token, f"unsupported type syntax near {word!r}")
            rust = ("*const " if pointee_const else "*mut ") + rust
            pointee_const = False
            while words and words[0] == "const":
                pointee_const = True  # the pointer itself is const
                words.pop(0)
        return rust

    def static_assert(self, token, body):
        words = [t.text for t in body]
        text = " ".join(words)
        match = re.fullmatch(r'HUD_STATIC_ASSERT \( sizeof \( (\w+) \) == (\w+) , (".*") \) ;', text)
        if match:
            self.emit("assert", dict(type=match.group(1), size=match.group(2), message=match.group(3), cfg64=self.cfg64()), *self.span)
            return
        # A field's offset: where a minor version's appended fields start.
        match = re.fullmatch(r'HUD_STATIC_ASSERT \( offsetof \( (\w+) , (\w+) \) == (\w+) , (".*") \) ;', text)
        if not match:
            self.error(token, f"unsupported static assertion: {text}")
        self.emit("assert", dict(type=match.group(1), field=match.group(2), size=match.group(3), message=match.group(4),
                                 cfg64=self.cfg64()), *self.span)


def rust_name(name):
    if name in ("self", "Self", "super", "crate"):
        return name + "_"
    if name in RUST_KEYWORDS:
        return "r#" + name
    return name


def wrapped_fn_type(name, ret, params):
    """`pub type name = Option<...>;`, one parameter a line when long."""
    line = f"pub type {name} = {fn_pointer(ret, params)};"
    if len(line) <= 110:
        return [line]
    arrow = f" -> {ret}" if ret else ""
    out = [f"pub type {name} = Option<", '    unsafe extern "C" fn(']
    out += [f"        {p}: {r}," if p else f"        {r}," for p, r in params]
    out += [f"    ){arrow},", ">;"]
    return out


def fn_pointer(ret, params):
    rendered = ", ".join(f"{name}: {rust}" if name else rust for name, rust in params)
    arrow = f" -> {ret}" if ret else ""
    return f'Option<unsafe extern "C" fn({rendered}){arrow}>'


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

def doc_lines(doc, indent=""):
    """/// lines; indented blocks become ```text blocks (not doc tests)."""
    out, in_block = [], False
    lines = list(doc)
    while lines and not lines[-1].strip():
        lines.pop()
    for text in lines:
        indented = text.startswith("    ") and text.strip()
        if indented and not in_block:
            out.append(f"{indent}/// ```text")
            in_block = True
        elif in_block and text.strip() and not indented:
            out.append(f"{indent}/// ```")
            in_block = False
        if in_block and not text.strip():
            # A blank line inside an indented block ends it unless more follows.
            out.append(f"{indent}///")
            continue
        out.append(f"{indent}/// {text}".rstrip())
    if in_block:
        while out and out[-1].endswith("///"):
            out.pop()
        out.append(f"{indent}/// ```")
    return out


def render_value(item):
    value, source = item["value"], item["source"]
    if item["type"] == "&str":
        return value
    literal = source.strip() if source else None
    if literal and re.fullmatch(r"0[xX][0-9a-fA-F]+[uU]?", literal):
        digits = len(literal.rstrip("uU")) - 2
        return f"0x{value:0{digits}X}"
    if source and not re.fullmatch(r"-?[0-9]+[uU]?", literal or "") and item["type"] == "u32":
        return f"0x{value:08X}"
    return str(value)


def generate(model):
    out = [
        "// SPDX-License-Identifier: MIT",
        "// Generated by Scripts/gen-rust-bindings.py from " + " and ".join(HEADERS) + "; do not edit.",
        "// Regenerate after changing a header; `Scripts/gen-rust-bindings.py --check` fails when stale.",
        "//",
        "// The Hudson HUD renderer ABI for Rust: every constant, type and structure of",
        "// the C headers (same names, #[repr(C)], same layout), then Rust counterparts of",
        "// the headers' C helpers (hud_layout_push_node, HUD_DECLARE_RENDERER as",
        "// hud_declare_renderer!, HUD_DEFINE_ENTRY as hud_define_entry!). Use it as a",
        "// module of your crate; the macros expect its items in scope:",
        "//",
        "//     // this file: `hudhost sdk --json` gives its path as rustBindings",
        "//     #[path = \"/usr/local/share/hud/rust/hud_renderer.rs\"]",
        "//     mod hud;",
        "//     use hud::*;",
        "//",
        "// Needs Rust 1.82 or later (c\"\" literals, offset_of!, unsafe attributes).",
        "// Docs/PLUGIN_GUIDE.md, \"Writing a renderer in Rust\", walks through a plugin.",
        "#![allow(non_camel_case_types, non_snake_case, dead_code, unused_imports, unused_macros, clippy::all)]",
        "",
    ]
    for kind, item in model.items:
        if kind == "section":
            out += ["", "// " + "-" * 74, "// " + item, "// " + "-" * 74, ""]
        elif kind == "blank":
            out.append("")
        elif kind == "const":
            out += doc_lines(item["doc"])
            out.append(f"pub const {item['name']}: {item['type']} = {render_value(item)};")
        elif kind == "scalar":
            out += doc_lines(item["doc"])
            out.append(f"pub type {item['name']} = {SCALARS[item['c']]};")
        elif kind == "fn_type":
            out += doc_lines(item["doc"])
            out += wrapped_fn_type(item["name"], item["ret"], item["params"])
        elif kind == "struct":
            out += doc_lines(item["doc"])
            out += ["#[repr(C)]", "#[derive(Clone, Copy, Debug)]", f"pub struct {item['name']} {{"]
            for field in item["fields"]:
                out += doc_lines(field["doc"], "    ")
                out.append(f"    pub {rust_name(field['name'])}: {field['type']},")
            out.append("}")
            out += [
                "",
                "/// All zero bytes: NULL pointers, no functions, zero numbers (the ABI's",
                "/// \"absent\" value for every field).",
                f"impl Default for {item['name']} {{",
                "    fn default() -> Self {",
                "        // SAFETY: every field is an integer, a float, a raw pointer, an",
                "        // Option of a function pointer, or an array of those; all-zero is",
                "        // a valid value of each.",
                "        unsafe { core::mem::zeroed() }",
                "    }",
                "}",
                "",
            ]
        elif kind == "assert":
            if item["cfg64"]:
                out.append('#[cfg(target_pointer_width = "64")]')
            if "field" in item:
                out.append(f"const _: () = assert!(core::mem::offset_of!({item['type']}, {item['field']}) == {item['size']} as usize, "
                           f"{item['message']});")
            else:
                out.append(f"const _: () = assert!(core::mem::size_of::<{item['type']}>() == {item['size']} as usize, {item['message']});")
        else:
            raise HeaderError(f"internal: unknown item {kind}")
    section = model.constants["HUD_METADATA_SECTION"][1]
    symbol = model.constants["HUD_ENTRY_SYMBOL_NAME"][1]
    out += ["", RUST_TAIL.strip("\n").replace("@SECTION@", section.strip('"')).replace("@SYMBOL@", symbol.strip('"')), ""]
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text)


RUST_TAIL = r'''
// --------------------------------------------------------------------------
// Rust counterparts of the C helpers (written in Scripts/gen-rust-bindings.py,
// not parsed from the headers): the headers' function-like macros and inline
// functions, and hud_helpers.h.
// --------------------------------------------------------------------------

/// `HUD_ABI_MAKE_VERSION(major, minor)`: major in the high 16 bits, minor in the low 16.
pub const fn hud_abi_make_version(major: u32, minor: u32) -> u32 {
    (major << 16) | (minor & 0xFFFF)
}

/// `HUD_ABI_VERSION_GET_MAJOR(version)`.
pub const fn hud_abi_version_get_major(version: u32) -> u32 {
    version >> 16
}

/// `HUD_ABI_VERSION_GET_MINOR(version)`.
pub const fn hud_abi_version_get_minor(version: u32) -> u32 {
    version & 0xFFFF
}

/// `hud_abi_version_is_compatible(plugin_version)`: the majors match.
pub const fn hud_abi_version_is_compatible(plugin_version: u32) -> bool {
    hud_abi_version_get_major(plugin_version) == HUD_ABI_VERSION_MAJOR as u32
}

/// `HUD_RGBA(r, g, b, a)`: sRGB, straight alpha, 0xRRGGBBAA.
pub const fn hud_rgba(r: u8, g: u8, b: u8, a: u8) -> hud_rgba_t {
    ((r as u32) << 24) | ((g as u32) << 16) | ((b as u32) << 8) | (a as u32)
}

/// `HUD_POSITION_BIT(position)`: a position's bit in a position set.
pub const fn hud_position_bit(position: hud_position_t) -> u32 {
    1u32 << (position as u32)
}

/// `HUD_MODE_BIT(index)`: a mode's bit in `hud_node_t.accessibility_actions`.
pub const fn hud_mode_bit(index: u32) -> u64 {
    1u64 << index
}

/// `HUD_STRUCT_HAS(ptr, type, field)` for a reference to a size-prefixed
/// structure filled by the other side: true when its `struct_size` covers
/// all of `field` (offset + size). Read a field appended after 1.0 only when
/// this holds, else use zero (its 1.0 meaning):
///
/// ```text
/// let presentation = if hud_struct_has!(env, hud_environment_t, presentation) {
///     env.presentation
/// } else {
///     HUD_PRESENTATION_ALWAYS_VISIBLE
/// };
/// ```
macro_rules! hud_struct_has {
    ($value:expr, $type:ty, $field:ident) => {{
        const fn field_size<T, F>(_: fn(&T) -> &F) -> usize {
            ::core::mem::size_of::<F>()
        }
        ($value).struct_size as usize
            >= ::core::mem::offset_of!($type, $field) + field_size(|value: &$type| &value.$field)
    }};
}
pub(crate) use hud_struct_has;

/// `HUD_LAYOUT_HAS_NODE_FIELD(layout, field)`: true when the host's
/// `node_stride` covers all of `hud_node_t`'s `field`, so the host sees what
/// is written there (a 1.0 host's stride, 168, has no `glyph_size`).
/// `hud_layout_push_node` already copies only what the stride covers.
macro_rules! hud_layout_has_node_field {
    ($layout:expr, $field:ident) => {{
        const fn field_size<F>(_: fn(&hud_node_t) -> &F) -> usize {
            ::core::mem::size_of::<F>()
        }
        ($layout).node_stride as usize
            >= ::core::mem::offset_of!(hud_node_t, $field) + field_size(|node: &hud_node_t| &node.$field)
    }};
}
pub(crate) use hud_layout_has_node_field;

/// `hud_layout_push_node`: appends `node` to the host's buffer, copying only
/// the bytes both sides know (the smaller of `size_of::<hud_node_t>()` and
/// `node_stride`), and counts it even when the buffer is full. Returns true
/// if it was written. Push every node, then return `hud_layout_finish(layout)`.
///
/// # Safety
/// `layout` is the `hud_layout_t` the host passed to this `layout()` call:
/// `nodes` points to `capacity * node_stride` writable bytes.
pub unsafe fn hud_layout_push_node(layout: &mut hud_layout_t, node: &hud_node_t) -> bool {
    let index = layout.count;
    layout.count = index.wrapping_add(1);
    if index >= layout.capacity {
        return false;
    }
    let stride = layout.node_stride as usize;
    let bytes = core::mem::size_of::<hud_node_t>().min(stride);
    // SAFETY: index < capacity, so the node's `stride` bytes are inside the
    // host's buffer (the caller's promise); `bytes` <= stride.
    unsafe {
        let destination = (layout.nodes as *mut u8).add(index as usize * stride);
        core::ptr::copy_nonoverlapping(node as *const hud_node_t as *const u8, destination, bytes);
    }
    true
}

/// `hud_layout_finish`: the status of a `layout()` that used
/// `hud_layout_push_node`.
pub fn hud_layout_finish(layout: &hud_layout_t) -> hud_status_t {
    if layout.count > layout.capacity { HUD_STATUS_BUFFER_TOO_SMALL } else { HUD_STATUS_OK }
}

/// A NUL-padded `[c_char; N]` from `text`; a compile-time error when used in
/// a constant and `text` (with its NUL) does not fit.
pub const fn hud_c_chars<const N: usize>(text: &str) -> [core::ffi::c_char; N] {
    let bytes = text.as_bytes();
    assert!(bytes.len() < N, "the string does not fit its array with a NUL");
    let mut out = [0 as core::ffi::c_char; N];
    let mut index = 0;
    while index < bytes.len() {
        assert!(bytes[index] != 0, "the string contains a NUL");
        out[index] = bytes[index] as core::ffi::c_char;
        index += 1;
    }
    out
}

/// True when `text` is 1...`limit` bytes (a HUD_MAX_*_BYTES limit).
pub const fn hud_text_fits(text: &str, limit: i32) -> bool {
    !text.is_empty() && text.len() <= limit as usize
}

/// `HUD_RENDERER_METADATA`'s record: what hosts read from the
/// `.hud_renderers` section without running the plugin. Prefer
/// `hud_declare_renderer!`, which makes the record and the descriptor from
/// the same values.
pub const fn hud_renderer_metadata(id: &str, name: &str, version: &str, vendor: &str, supported_positions: u32,
                                   capabilities: u32) -> hud_renderer_metadata_t {
    let magic = HUD_METADATA_MAGIC.as_bytes();
    let mut record_magic = [0 as core::ffi::c_char; 8];
    let mut index = 0;
    while index < 8 {
        record_magic[index] = magic[index] as core::ffi::c_char;
        index += 1;
    }
    hud_renderer_metadata_t {
        magic: record_magic,
        record_size: core::mem::size_of::<hud_renderer_metadata_t>() as u32,
        abi_version: HUD_ABI_VERSION,
        supported_positions,
        capabilities,
        id: hud_c_chars(id),
        name: hud_c_chars(name),
        version: hud_c_chars(version),
        vendor: hud_c_chars(vendor),
    }
}

// SAFETY: a descriptor's pointers point to the plugin's constant, static
// data and code ([plugin-owned], "constant from init() to the last
// deinit()"); hosts read it from any thread ([thread-safe]).
unsafe impl Sync for hud_renderer_descriptor_t {}
// SAFETY: the entry is static and constant; its pointers are functions.
unsafe impl Sync for hud_entry_t {}

/// `HUD_DECLARE_RENDERER`: a `static` descriptor named `$name` and its
/// metadata record `$metadata` in the `.hud_renderers` section, from one
/// list of values, so the two cannot disagree (hosts refuse a renderer whose
/// record and descriptor differ). The strings are literals, checked at
/// compile time against their limits; `layout` and `get_extension` are
/// `extern "C"` functions of the ABI's signatures. `picker_icon` (ABI 1.2,
/// optional) is the icon name a style picker shows for the renderer;
/// without it the host shows its default.
///
/// ```text
/// hud_declare_renderer!(RING, RING_METADATA {
///     id: "org.example.ring", name: "Ring", version: "1.0.0", vendor: "Example",
///     description: "A ring of slots.",
///     supported_positions: HUD_POSITION_ALL_BITS, capabilities: HUD_CAPABILITY_THREAD_SAFE,
///     layout: ring_layout, get_extension: ring_get_extension, picker_icon: "circle.circle",
/// });
/// ```
macro_rules! hud_declare_renderer {
    ($name:ident, $metadata:ident {
        id: $id:literal, name: $display:literal, version: $version:literal, vendor: $vendor:literal,
        description: $description:literal, supported_positions: $positions:expr, capabilities: $capabilities:expr,
        layout: $layout:expr, get_extension: $get_extension:expr $(, picker_icon: $picker_icon:literal)? $(,)?
    }) => {
        const _: () = assert!(hud_text_fits($id, HUD_MAX_ID_BYTES), "renderer id: 1...HUD_MAX_ID_BYTES bytes");
        const _: () = assert!(hud_text_fits($display, HUD_MAX_NAME_BYTES), "renderer name: 1...HUD_MAX_NAME_BYTES bytes");
        const _: () = assert!(hud_text_fits($version, HUD_MAX_VERSION_BYTES), "renderer version: 1...HUD_MAX_VERSION_BYTES bytes");
        const _: () = assert!(hud_text_fits($vendor, HUD_MAX_NAME_BYTES), "renderer vendor: 1...HUD_MAX_NAME_BYTES bytes");
        const _: () = assert!(hud_text_fits($description, HUD_MAX_DESCRIPTION_BYTES),
                              "renderer description: 1...HUD_MAX_DESCRIPTION_BYTES bytes");
        $(const _: () = assert!(hud_text_fits($picker_icon, HUD_MAX_ICON_BYTES), "picker icon: 1...HUD_MAX_ICON_BYTES bytes");)?
        #[used]
        #[unsafe(link_section = "@SECTION@")]
        static $metadata: hud_renderer_metadata_t = hud_renderer_metadata($id, $display, $version, $vendor, $positions, $capabilities);
        static $name: hud_renderer_descriptor_t = hud_renderer_descriptor_t {
            struct_size: ::core::mem::size_of::<hud_renderer_descriptor_t>() as u32,
            capabilities: $capabilities,
            id: concat!($id, "\0").as_ptr().cast(),
            name: concat!($display, "\0").as_ptr().cast(),
            version: concat!($version, "\0").as_ptr().cast(),
            vendor: concat!($vendor, "\0").as_ptr().cast(),
            description: concat!($description, "\0").as_ptr().cast(),
            supported_positions: $positions,
            reserved: 0,
            layout: Some($layout),
            get_extension: Some($get_extension),
            picker_icon: hud_picker_icon!($($picker_icon)?),
        };
    };
}
pub(crate) use hud_declare_renderer;

/// The descriptor's `picker_icon` from `hud_declare_renderer!`'s optional
/// argument: NULL without one (the host's default icon).
macro_rules! hud_picker_icon {
    () => {
        ::core::ptr::null()
    };
    ($icon:literal) => {
        concat!($icon, "\0").as_ptr().cast()
    };
}
pub(crate) use hud_picker_icon;

/// `HUD_DEFINE_ENTRY`: the plugin's reference-counted entry and the exported
/// `@SYMBOL@`, serving the given descriptors (statics, 1...HUD_MAX_RENDERERS
/// of them). init() and deinit() are counted (an extra deinit() at zero is
/// a no-op), renderer_count() is 0 until init(), renderer_at() returns NULL
/// past the end. Use it once per plugin: `hud_define_entry!(RING);`.
macro_rules! hud_define_entry {
    ($($renderer:expr),+ $(,)?) => {
        static HUD_ENTRY_RENDERERS: &[&hud_renderer_descriptor_t] = &[$(&$renderer),+];
        const _: () = assert!(HUD_ENTRY_RENDERERS.len() <= HUD_MAX_RENDERERS as usize, "at most HUD_MAX_RENDERERS renderers");
        static HUD_ENTRY_REFCOUNT: ::core::sync::atomic::AtomicU32 = ::core::sync::atomic::AtomicU32::new(0);

        extern "C" fn hud_entry_init() -> hud_status_t {
            HUD_ENTRY_REFCOUNT.fetch_add(1, ::core::sync::atomic::Ordering::AcqRel);
            HUD_STATUS_OK
        }

        extern "C" fn hud_entry_deinit() {
            let _ = HUD_ENTRY_REFCOUNT.fetch_update(::core::sync::atomic::Ordering::AcqRel,
                                                    ::core::sync::atomic::Ordering::Acquire, |count| count.checked_sub(1));
        }

        extern "C" fn hud_entry_renderer_count() -> u32 {
            if HUD_ENTRY_REFCOUNT.load(::core::sync::atomic::Ordering::Acquire) > 0 { HUD_ENTRY_RENDERERS.len() as u32 } else { 0 }
        }

        extern "C" fn hud_entry_renderer_at(index: u32) -> *const hud_renderer_descriptor_t {
            if index < hud_entry_renderer_count() { HUD_ENTRY_RENDERERS[index as usize] } else { ::core::ptr::null() }
        }

        static HUD_ENTRY: hud_entry_t = hud_entry_t {
            abi_version: HUD_ABI_VERSION,
            struct_size: ::core::mem::size_of::<hud_entry_t>() as u32,
            init: Some(hud_entry_init),
            deinit: Some(hud_entry_deinit),
            renderer_count: Some(hud_entry_renderer_count),
            renderer_at: Some(hud_entry_renderer_at),
        };

        /// The one symbol hosts look up (HUD_ENTRY_SYMBOL_NAME).
        #[unsafe(no_mangle)]
        pub extern "C" fn @SYMBOL@() -> *const hud_entry_t {
            &HUD_ENTRY
        }
    };
}
pub(crate) use hud_define_entry;
'''


def build():
    model = Model()
    for header in HEADERS:
        path = INCLUDE / header
        Parser(model, header, lex(path.read_text(encoding="utf-8"), header)).run()
    for required in ("HUD_METADATA_SECTION", "HUD_ENTRY_SYMBOL_NAME", "HUD_ABI_VERSION"):
        if required not in model.constants:
            raise HeaderError(f"{required} not found in the headers")
    return generate(model)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 with a diff if the committed file is stale")
    parser.add_argument("--output", type=pathlib.Path, default=OUTPUT, help="where to write (default: the committed file)")
    arguments = parser.parse_args()
    try:
        text = build()
    except HeaderError as error:
        print(f"gen-rust-bindings: {error}", file=sys.stderr)
        return 2
    output = arguments.output.resolve()
    shown = output.relative_to(ROOT) if ROOT in output.parents else output
    if arguments.check:
        current = output.read_text(encoding="utf-8") if output.exists() else ""
        if current == text:
            print(f"gen-rust-bindings: {shown} is up to date")
            return 0
        diff = difflib.unified_diff(current.splitlines(True), text.splitlines(True), f"{shown} (committed)", f"{shown} (from the headers)")
        sys.stdout.writelines(diff)
        print(f"gen-rust-bindings: {shown} is stale; run Scripts/gen-rust-bindings.py and commit the result", file=sys.stderr)
        return 1
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    print(f"gen-rust-bindings: wrote {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
