#!/usr/bin/env python3
"""A reference host for the codeagent artifact protocol (v1), in Python with the standard library only.

It implements the artifact accessors and the HTML trust boundary the way CONTRACTS.md section 1 states them, and
speaks the conformance kit's NDJSON protocol on stdio: a hello line, then one JSON answer per JSON request line.
Run it with the kit:  codeagent-conformance --host "python3 codeagent_conformance_host.py"
"""
import difflib
import json
import re
import sys

SCHEMA = "codeagent.tool-artifact"
KEYS = ("schema", "version", "kind", "status", "icon", "title", "payload")


class ArtifactTypeError(TypeError):
    """A programmer error with the stable code the protocol names (TypeError in the instanceof sense)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def is_version(x):
    return is_number(x) and x == x and x not in (float("inf"), float("-inf")) and float(x).is_integer() and x >= 1


def whole(x):
    return int(x) if is_number(x) else x


def is_payload(x):
    return isinstance(x, (dict, list))


def snapshot(x, versions=None):
    """A fresh v1-shaped copy of a valid artifact (seven keys, contract order), or None."""
    if not isinstance(x, dict) or x.get("schema") != SCHEMA:
        return None
    version = x.get("version")
    if not is_version(version):
        return None
    if versions is not None and whole(version) not in versions:
        return None
    if any(k not in x for k in KEYS):
        return None
    kind, status, icon, title, payload = (x[k] for k in ("kind", "status", "icon", "title", "payload"))
    if not isinstance(kind, str) or kind == "" or not isinstance(status, str) or status == "":
        return None
    if icon is not None and not isinstance(icon, str):
        return None
    if title is not None and not isinstance(title, str):
        return None
    if not is_payload(payload):
        return None
    return {"schema": SCHEMA, "version": whole(version), "kind": kind, "status": status, "icon": icon,
            "title": title, "payload": payload}


def with_extra_keys(art, source):
    for k, v in source.items():
        if k not in KEYS:
            art[k] = v
    return art


def error_set(e):
    return e is not None and e is not False


def version_filter(options):
    if options is None:
        return [1]
    if not isinstance(options, dict):
        raise ArtifactTypeError("invalid-options", "toolResultArtifact options must be an object")
    if "version" not in options:
        return [1]
    v = options["version"]
    if v is None:
        return None
    if is_version(v):
        return [whole(v)]
    if isinstance(v, list) and len(v) > 0 and all(is_version(i) for i in v):
        return [whole(i) for i in v]
    raise ArtifactTypeError("invalid-version-option",
                            "version must be a finite positive integer, a non-empty array of them, or null")


def locate(x):
    if x.get("schema") == SCHEMA:
        return x
    extra = x.get("extra")
    if isinstance(extra, dict):
        codeagent = extra.get("codeagent")
        if isinstance(codeagent, dict) and "artifact" in codeagent:
            return codeagent["artifact"]
    return x.get("artifact")


def tool_result_artifact(x, options=None):
    versions = version_filter(options)
    if not isinstance(x, dict):
        return None
    candidate = locate(x)
    art = snapshot(candidate, versions)
    if art is None:
        return None
    if art["version"] != 1:
        return with_extra_keys(art, candidate)
    forced = candidate is not x and (error_set(x.get("error")) or x.get("isError") is True)
    if art["kind"] == "error" or forced:
        art["status"] = "error"
    return art


def tool_result_value(x, fallback=""):
    if not isinstance(fallback, str):
        raise ArtifactTypeError("invalid-fallback", "toolResultValue fallback must be a string")
    if isinstance(x, str):
        return x
    if isinstance(x, dict) and isinstance(x.get("value"), str):
        return x["value"]
    return fallback


def make_artifact(kind, status, icon, title, payload):
    return {"schema": SCHEMA, "version": 1, "kind": kind, "status": status, "icon": icon, "title": title,
            "payload": payload}


def synthesized(value, forced, title=None):
    if forced:
        return make_artifact("error", "error", None, title, {"message": value})
    return make_artifact("text", "success", None, None, {"text": value})


def upgrade_legacy(a, forced):
    if "schema" in a or "version" in a:
        return None
    kind, payload = a.get("kind"), a.get("payload")
    if not isinstance(kind, str) or kind == "" or not is_payload(payload):
        return None
    status = a.get("status") if isinstance(a.get("status"), str) and a.get("status") else "success"
    icon = a.get("icon") if isinstance(a.get("icon"), str) else None
    title = a.get("title") if isinstance(a.get("title"), str) else None
    return make_artifact(kind, "error" if forced or kind == "error" else status, icon, title, payload)


def adapt_artifact(candidate, value, forced, title):
    snap = snapshot(candidate)
    if snap is not None:
        if snap["version"] != 1:
            return with_extra_keys(snap, candidate)
        status = "error" if forced or snap["kind"] == "error" else snap["status"]
        return make_artifact(snap["kind"], status, snap["icon"], snap["title"], snap["payload"])
    if isinstance(candidate, dict):
        up = upgrade_legacy(candidate, forced)
        if up is not None:
            return up
    return synthesized(value, forced, title)


def tool_name(x, is_event):
    request = x.get("request")
    name = request.get("name") if isinstance(request, dict) else None
    if isinstance(name, str) and name:
        return name
    name = x.get("name") if is_event else None
    return name if isinstance(name, str) and name else None


def adapt_tool_result(x):
    if not isinstance(x, dict):
        value = x if isinstance(x, str) else ""
        return {"value": value, "extra": {"codeagent": {"artifact": synthesized(value, False)}}}
    if x.get("schema") == SCHEMA:
        return {"value": "", "extra": {"codeagent": {"artifact": adapt_artifact(x, "", False, None)}}}
    value = x.get("value") if isinstance(x.get("value"), str) else ""
    forced = error_set(x.get("error")) or x.get("isError") is True
    extra = dict(x["extra"]) if isinstance(x.get("extra"), dict) else {}
    codeagent = dict(extra["codeagent"]) if isinstance(extra.get("codeagent"), dict) else {}
    carried = codeagent.get("artifact")
    is_event = carried is None and "artifact" not in codeagent and x.get("artifact") is not None
    candidate = x.get("artifact") if is_event else carried
    codeagent["artifact"] = adapt_artifact(candidate, value, forced, tool_name(x, is_event))
    extra["codeagent"] = codeagent
    out = {"value": value, "extra": extra}
    for k, v in x.items():
        if k not in ("value", "extra") and not (is_event and k == "artifact"):
            out[k] = v
    return out


HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def escape_html(text):
    return "".join(HTML.get(c, c) for c in str(text))


def tool_result(value, options=None):
    if not isinstance(value, str):
        raise ArtifactTypeError("invalid-value", "toolResult value must be a string (the portable text)")
    if options is not None and not isinstance(options, dict):
        raise ArtifactTypeError("invalid-options", "toolResult options must be an object")
    o = options or {}
    # An absent option takes its default; an explicit null is a bad value (JSON has no undefined).
    kind = o["kind"] if "kind" in o else "text"
    if not isinstance(kind, str) or kind == "":
        raise ArtifactTypeError("invalid-kind", "toolResult kind must be a non-empty string")
    title, icon = o.get("title"), o.get("icon")
    if title is not None and not isinstance(title, str):
        raise ArtifactTypeError("invalid-title", "toolResult title must be a string or null")
    if icon is not None and not isinstance(icon, str):
        raise ArtifactTypeError("invalid-icon", "toolResult icon must be a string or null")
    status = o["status"] if "status" in o else ("error" if kind == "error" else "success")
    if not isinstance(status, str) or status == "":
        raise ArtifactTypeError("invalid-status", "toolResult status must be a non-empty string")
    if kind == "error" and status != "error":
        raise ArtifactTypeError("invalid-status", 'toolResult kind "error" always has status "error"')
    payload = o["payload"] if "payload" in o else None
    if "payload" not in o:
        if kind == "text":
            payload = {"text": value}
        elif kind == "error":
            payload = {"message": value}
        else:
            raise ArtifactTypeError("missing-payload", 'toolResult kind "%s" needs a payload' % kind)
    elif not is_payload(payload):
        raise ArtifactTypeError("invalid-payload", "toolResult payload must be a plain object or an array")
    return {"value": value, "extra": {"codeagent": {"artifact": make_artifact(kind, status, icon, title, payload)}}}


ESC, BEL, C1_ST = 0x1B, 0x07, 0x9C


def skip_string(s, i, bell_ends):
    """Index just past an OSC/DCS/SOS/PM/APC body starting at i; BEL ends OSC only."""
    j = i
    while j < len(s):
        c = ord(s[j])
        if c == C1_ST or (bell_ends and c == BEL):
            return j + 1
        if c == ESC:
            return j + 2 if j + 1 < len(s) and s[j + 1] == "\\" else j
        j += 1
    return len(s)


def scan_csi(s, i):
    """End of a CSI body at i, and whether it is plain SGR (digits, ';' and ':' only, no intermediates, final m)."""
    j, digits_only = i, True
    while j < len(s) and 0x30 <= ord(s[j]) <= 0x3F:
        c = ord(s[j])
        if not (0x30 <= c <= 0x39 or c in (0x3B, 0x3A)):
            digits_only = False
        j += 1
    intermediates = False
    while j < len(s) and 0x20 <= ord(s[j]) <= 0x2F:
        intermediates = True
        j += 1
    if j < len(s) and 0x40 <= ord(s[j]) <= 0x7E:
        return j + 1, s[j] == "m" and digits_only and not intermediates
    return j, False


def skip_control(s, i, c, keep):
    if c == ESC:
        if i + 1 >= len(s):
            return i + 1
        nxt = ord(s[i + 1])
        if nxt == 0x5B:
            end, sgr = scan_csi(s, i + 2)
            if sgr:
                keep(s[i:end])
            return end
        if nxt == 0x5D:
            return skip_string(s, i + 2, True)
        if nxt in (0x50, 0x58, 0x5E, 0x5F):
            return skip_string(s, i + 2, False)
        j = i + 1
        while j < len(s) and 0x20 <= ord(s[j]) <= 0x2F:
            j += 1
        return j + 1 if j < len(s) and 0x30 <= ord(s[j]) <= 0x7E else j
    if c == 0x9B:
        return scan_csi(s, i + 1)[0]
    if c == 0x9D:
        return skip_string(s, i + 1, True)
    if c in (0x90, 0x98, 0x9E, 0x9F):
        return skip_string(s, i + 1, False)
    return i + 1


def js_string(x):
    if isinstance(x, str):
        return x
    if x is True:
        return "true"
    if x is False:
        return "false"
    if x is None:
        return "null"
    return json.dumps(x)


UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def sanitize_terminal_text(text, options=None):
    """Keeps SGR, \\n and \\t; strips every other escape, C0/C1 controls, DEL and bidi overrides/isolates."""
    s = js_string(text)
    keep_sgr = not (isinstance(options, dict) and options.get("keepSgr") is False)
    out, start, i = [], 0, 0
    while True:
        m = UNSAFE.search(s, i)  # jump from one unsafe character to the next (10 MB stays fast)
        if m is None:
            break
        i = m.start()
        out.append(s[start:i])
        kept = []
        i = skip_control(s, i, ord(s[i]), kept.append)
        if keep_sgr:
            out.extend(kept)
        start = i
    out.append(s[start:])
    return "".join(out)


def column_type(values):
    kind = None
    for cell in values:
        if cell is None:
            continue
        if isinstance(cell, bool):
            t = "boolean"
        elif isinstance(cell, (int, float)):
            t = "number"
        elif isinstance(cell, str):
            t = "string"
        else:
            t = "json"
        if kind is None:
            kind = t
        elif kind != t:
            return "json"
    return kind or "null"


def normalize_tool_output(output):
    """A string, a ToolResult, rows (a table) or other JSON, as a ToolResult."""
    if isinstance(output, str):
        return {"value": output, "extra": {"codeagent": {"artifact": make_artifact("text", "success", None, None,
                                                                                     {"text": output})}}}
    extra = output.get("extra") if isinstance(output, dict) else None
    if isinstance(output, dict) and isinstance(output.get("value"), str) and isinstance(extra, dict) \
            and isinstance(extra.get("codeagent"), dict):
        return adapt_tool_result(output)
    if isinstance(output, list) and output and all(isinstance(r, dict) for r in output):
        names = []
        for row in output:
            for k in row:
                if k not in names:
                    names.append(k)
        columns = [{"name": n, "type": column_type([row.get(n) for row in output])} for n in names]
        value = json.dumps(output, separators=(",", ":"), ensure_ascii=False)
        return {"value": value, "extra": {"codeagent": {"artifact": make_artifact(
            "table", "success", None, None, {"df": output, "columns": columns})}}}
    text = json.dumps(output, indent=2, ensure_ascii=False)
    return {"value": text, "extra": {"codeagent": {"artifact": make_artifact("text", "success", None, None,
                                                                               {"text": text, "lang": "json"})}}}


def terminal_fallback_text(output):
    """render-intent's terminal fallback: a console fence, trailing \\n / \\r\\n removed, longer than any backtick run."""
    body = output if isinstance(output, str) else ""
    while body.endswith("\n"):
        body = body[:-2] if body.endswith("\r\n") else body[:-1]
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return "%sconsole\n%s\n%s" % (fence, body, fence)


ACP_STOP_REASONS = {"completed": "end_turn", "incomplete_tool_use": "end_turn", "truncated": "max_tokens",
                    "budget_exceeded": "max_tokens", "filtered": "refusal", "max_turns": "max_turn_requests",
                    "interrupted": "cancelled", "error": None}


def acp_stop_reason(reason):
    """The ACP stop reason of a codeagent stop reason; None: the prompt is answered with an error."""
    if reason not in ACP_STOP_REASONS:
        raise ValueError("unknown stop reason %r" % (reason,))
    return ACP_STOP_REASONS[reason]


def map_stop_reason(facts):
    """agent-core's stop reason of a turn from what the loop knows at its end (CONTRACTS.md section 3)."""
    if not isinstance(facts, dict):
        raise ValueError("mapStopReason facts must be an object")
    unresolved = facts.get("unresolvedToolCalls") or 0
    if facts.get("aborted") is True:
        return "interrupted"
    if facts.get("failed") is True:
        return "error"
    if facts.get("budgetExceeded") is True:
        return "budget_exceeded"
    finish = facts.get("finishReason")
    if finish == "length":
        return "truncated"
    if finish == "content-filter":
        return "filtered"
    if finish == "error":
        return "error"
    if unresolved > 0:
        return "incomplete_tool_use"
    if finish == "tool-calls" and facts.get("hitMaxTurns") is True:
        return "max_turns"
    return "completed"


# --- render-intent: the presenter's resolution rules (CONTRACTS.md section 2) on tools described as data ---

TOOL_CALL_KINDS = ("read", "edit", "delete", "move", "search", "execute", "fetch", "other")


def is_dict(x):
    return isinstance(x, dict)


def opt_string(o, k):
    return k not in o or isinstance(o[k], str)


def is_safe_int(x):
    return is_number(x) and float(x).is_integer() and abs(x) <= 2 ** 53 - 1


def opt_array_of(o, k, item):
    return k not in o or (isinstance(o[k], list) and all(item(i) for i in o[k]))


def is_content_block(x):
    if not is_dict(x):
        return False
    if x.get("type") == "text":
        return isinstance(x.get("text"), str)
    if x.get("type") == "image":
        return isinstance(x.get("mime"), str) and isinstance(x.get("b64"), str)
    return False


def is_file_diff(x):
    return is_dict(x) and isinstance(x.get("path"), str) and "oldText" in x and \
        (x["oldText"] is None or isinstance(x["oldText"], str)) and isinstance(x.get("newText"), str)


def is_location(x):
    return is_dict(x) and isinstance(x.get("path"), str) and \
        ("line" not in x or (is_safe_int(x["line"]) and x["line"] >= 1))


def is_call_view(x):
    if not is_dict(x) or not isinstance(x.get("title"), str):
        return False
    card = x.get("card")
    if card == "generic":
        return ("kind" not in x or x["kind"] in TOOL_CALL_KINDS) and opt_array_of(x, "content", is_content_block) \
            and opt_array_of(x, "locations", is_location)
    if card == "terminal":
        return opt_string(x, "description") and opt_string(x, "cwd")
    if card == "diff":
        return isinstance(x.get("diffs"), list) and all(is_file_diff(d) for d in x["diffs"]) \
            and opt_array_of(x, "locations", is_location)
    return False


def is_result_view(x):
    if not is_dict(x) or not opt_string(x, "title"):
        return False
    card = x.get("card")
    if card == "generic":
        return opt_array_of(x, "content", is_content_block)
    if card == "terminal":
        return opt_string(x, "output") and opt_string(x, "signal") and ("exitCode" not in x or is_safe_int(x["exitCode"]))
    if card == "diff":
        return isinstance(x.get("diffs"), list) and all(is_file_diff(d) for d in x["diffs"])
    return False


def compact_json(x):
    return json.dumps(x, separators=(",", ":"), ensure_ascii=False)


def to_content_blocks(content):
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if content is None:
        return []
    if not isinstance(content, list):
        return [{"type": "text", "text": safe_json(content, 100000)}]
    return [item if is_content_block(item) else {"type": "text", "text": item if isinstance(item, str)
                                                  else safe_json(item, 100000)} for item in content]


def safe_json(value, limit=200):
    """render-intent's safeJson: compact JSON, at most 8 levels, cut at `limit` characters."""
    def walk(v, depth):
        if isinstance(v, (dict, list)) and depth >= 8:
            return '"[\u2026]"'
        if isinstance(v, dict):
            return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + walk(x, depth + 1) for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ",".join(walk(x, depth + 1) for x in v) + "]"
        return json.dumps(v, ensure_ascii=False)
    out = walk(value, 0)
    return out[:limit] + "\u2026(truncated)" if len(out) > limit else out


def text_of(blocks):
    return "\n".join(b["text"] for b in blocks if b.get("type") == "text")


class Contained(Exception):
    """A presenter failure the presenter reports and contains (never escapes to the display)."""


def behave(spec, echo):
    def run(*args):
        if spec == "undefined":
            return None
        if spec == "echo":
            return echo(*args)
        if is_dict(spec) and "throws" in spec:
            raise Contained(spec["throws"])
        return json.loads(json.dumps(spec["returns"]))
    return run


def call_echo(args):
    return {"card": "generic", "title": "echo", "kind": "other", "rawInput": args}


def result_echo(args, r):
    shown = {"args": args, "value": r["value"], "isError": r["isError"]}
    if "meta" in r:
        shown["meta"] = r["meta"]
    return {"card": "generic", "title": "echo", "content": [{"type": "text", "text": compact_json(shown)}]}


def validate_schema(spec, value):
    """A Standard Schema described as data: (ok, value) or an issue code."""
    if spec == "async":
        return "schema-async", None
    if "throws" in spec:
        return "schema-threw", None
    key = spec["requireString"]
    if is_dict(value) and isinstance(value.get(key), str):
        out = dict(value)
        out["checked"] = True
        return None, out
    return "invalid-args", None


def present_session(tools, steps):
    """One presenter session on tools described as data: {views, issues, pending} (PROTOCOL.md section 4)."""
    issues, calls, views = [], {}, []

    def lookup(name):
        spec = tools.get(name) if is_dict(tools) else None
        if is_dict(spec) and spec.get("lookupThrows") is True:
            raise Contained("lookup " + name)
        return spec if is_dict(spec) else None

    def contained(code_threw, run, is_view):
        try:
            out = run()
        except Contained:
            issues.append(code_threw)
            return None
        if out is None or is_view(out):
            return out
        issues.append("invalid-view")
        return None

    def present_call(cid, name, args):
        try:
            entry = lookup(name)
        except Contained:
            issues.append("lookup-threw")
            entry = None
        presented, args_ok = args, entry is not None
        if entry is not None and "inputSchema" in entry:
            code, checked = validate_schema(entry["inputSchema"], args)
            if code:
                issues.append(code)
                args_ok = False
            else:
                presented = checked
        view = None
        if args_ok and "presentCall" in entry:
            view = contained("present-call-threw", lambda: behave(entry["presentCall"], call_echo)(presented),
                             is_call_view)
        if view is None:
            view = {"card": "generic", "title": name, "kind": "other", "rawInput": args}
        calls[cid] = {"name": name, "args": presented, "entry": entry, "ok": args_ok, "card": view["card"]}
        return view

    def present_result(cid, r):
        raw = to_content_blocks(r.get("content"))
        remembered = calls.pop(cid, None)
        if remembered is None:
            issues.append("unknown-call")
            return {"card": "generic", "content": raw}
        entry, view = remembered["entry"], None
        if remembered["ok"] and "presentResult" in entry:
            given = {"content": raw, "value": text_of(raw), "isError": r.get("isError") is True}
            if "meta" in r:
                given["meta"] = r["meta"]
            view = contained("present-result-threw",
                             lambda: behave(entry["presentResult"], result_echo)(remembered["args"], given),
                             is_result_view)
        if view is None:
            return {"card": "generic", "content": raw}
        if view["card"] == "terminal" and remembered["card"] != "terminal":
            issues.append("orphan-terminal-result")
            fallback = {"card": "generic", "content": raw if "output" not in view else
                        [{"type": "text", "text": terminal_fallback_text(view["output"])}]}
            if "title" in view:
                fallback["title"] = view["title"]
            return fallback
        if view["card"] == "generic" and "content" not in view:
            view = dict(view)
            view["content"] = raw
        return view

    for step in steps:
        if "call" in step:
            c = step["call"]
            views.append(present_call(c["id"], c["name"], c.get("args")))
        else:
            r = step["result"]
            views.append(present_result(r["id"], r))
    return {"views": views, "issues": issues, "pending": len(calls)}


# --- render-intent paths and the ACP mapping (CONTRACTS.md section 2 "ACP mapping", ADR 0151) ---

DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
UNC = re.compile(r"^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)")


def normalise_segments(parts, base=()):
    out = list(base)
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            if out:
                out.pop()
        else:
            out.append(part)
    return out


def parse_absolute(path):
    if DRIVE.match(path):
        sep = "/" if path[2] == "/" else "\\"
        return {"root": path[:2], "win": True, "segs": normalise_segments(re.split(r"[\\/]", path[3:])), "sep": sep}
    if path.startswith("\\\\"):
        m = UNC.match(path)
        if not m:
            return None
        return {"root": "\\\\%s\\%s" % (m.group(1), m.group(2)), "win": True,
                "segs": normalise_segments(re.split(r"[\\/]", path[m.end():])), "sep": "\\"}
    if path.startswith("/"):
        return {"root": "/", "win": False, "segs": normalise_segments(path.split("/")), "sep": "/"}
    return None


def format_path(p):
    if not p["win"]:
        return "/" + "/".join(p["segs"])
    return p["root"] + p["sep"] + p["sep"].join(p["segs"])


def resolve_path(path, cwd=None):
    """render-intent's resolvePath: POSIX and Windows paths, `.` and `..` normalised, never above the root."""
    p = parse_absolute(path)
    if p is None and cwd is not None:
        base = parse_absolute(cwd)
        if base is not None and base["win"]:
            p = dict(base)
            drive = re.match(r"^([A-Za-z]:)(.*)$", path, re.S)
            if re.match(r"^[\\/]", path):
                p["segs"] = normalise_segments(re.split(r"[\\/]", path))
            elif drive:
                same = drive.group(1).lower() == base["root"].lower()
                p["root"] = drive.group(1)
                p["segs"] = normalise_segments(re.split(r"[\\/]", drive.group(2)), base["segs"] if same else [])
            else:
                p["segs"] = normalise_segments(re.split(r"[\\/]", path), base["segs"])
        elif base is not None:
            p = dict(base)
            p["segs"] = normalise_segments(path.split("/"), base["segs"])
    return format_path(p) if p is not None else path


INVISIBLE = re.compile("[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def visible_title(text):
    out = []
    for ch in text:
        c = ord(ch)
        control = (c < 0x20 and c not in (0x09, 0x0A)) or c == 0x7F or 0x80 <= c <= 0x9F
        out.append("\\u{%x}" % c if control or INVISIBLE.match(ch) else ch)
    return "".join(out)


def plain_text(text):
    return sanitize_terminal_text(text, {"keepSgr": False})


def text_content(text):
    return {"type": "content", "content": {"type": "text", "text": plain_text(text)}}


def fenced(text):
    longest = max([2] + [len(run) for run in re.findall(r"`+", text)])
    fence = "`" * (longest + 1)
    return "%s\n%s%s%s" % (fence, text, "" if text.endswith("\n") else "\n", fence)


def block_content(block):
    if block["type"] == "text":
        return text_content(block["text"])
    return {"type": "content", "content": {"type": "image", "data": block["b64"], "mimeType": block["mime"]}}


def acp_locations(items, cwd):
    out = []
    for loc in items or []:
        item = {"path": resolve_path(loc["path"], cwd)}
        if "line" in loc:
            item["line"] = loc["line"]
        out.append(item)
    return out


def diff_content(diffs, cwd):
    return [{"type": "diff", "path": resolve_path(d["path"], cwd), "oldText": d["oldText"], "newText": d["newText"]}
            for d in diffs]


def acp_tool_call(call_id, view, raw_input, ctx):
    """The ACP `tool_call` session update of a call view."""
    card, cwd, meta = view["card"], ctx["cwd"], None
    title = visible_title(view["title"])
    if card == "generic":
        kind = view.get("kind", "other")
        content = [block_content(b) for b in view.get("content", [])]
        locations = acp_locations(view.get("locations"), cwd)
    elif card == "diff":
        kind, content = "edit", diff_content(view["diffs"], cwd)
        locations = [{"path": resolve_path(d["path"], cwd)} for d in view["diffs"]] if "locations" not in view \
            else acp_locations(view["locations"], cwd)
    elif card == "terminal":
        kind, locations = "execute", []
        content = [text_content(view["description"])] if view.get("description") else []
        if ctx.get("terminalOutput"):
            content.append({"type": "terminal", "terminalId": call_id})
            meta = {"terminal_info": {"terminal_id": call_id, "cwd": resolve_path(view.get("cwd", "."), cwd)}}
    else:
        raise RenderIntentError("unreachable-variant", "unknown card %r" % (card,))
    out = {"sessionUpdate": "tool_call", "toolCallId": call_id, "title": title, "kind": kind, "status": "pending"}
    if content:
        out["content"] = content
    if locations:
        out["locations"] = locations
    out["rawInput"] = raw_input
    if meta:
        out["_meta"] = meta
    return out


def acp_tool_result(call_id, call, view, is_error, ctx):
    """The ACP `tool_call_update` session updates of a result view, in order."""
    base = {"sessionUpdate": "tool_call_update", "toolCallId": call_id, "status": "failed" if is_error else "completed"}
    if "title" in view:
        both = call is not None and call["title"] != view["title"]
        base["title"] = visible_title("%s \u00b7 %s" % (call["title"], view["title"]) if both else view["title"])
    card = view["card"]
    if card == "generic":
        verbatim = is_error or (call is not None and call["card"] == "generic" and call.get("kind") == "read")
        if "content" in view:
            base["content"] = [block_content({"type": "text", "text": fenced(b["text"])})
                               if verbatim and b["type"] == "text" and not b["text"].startswith("```")
                               else block_content(b) for b in view["content"]]
        return [base]
    if card == "diff":
        base["content"] = diff_content(view["diffs"], ctx["cwd"])
        return [base]
    if card == "terminal":
        output = view.get("output", "")
        if ctx.get("terminalOutput") and call is not None and call["card"] == "terminal":
            description = [text_content(call["description"])] if call.get("description") else []
            live = {"sessionUpdate": "tool_call_update", "toolCallId": call_id,
                    "_meta": {"terminal_output": {"terminal_id": call_id, "data": sanitize_terminal_text(output)}}}
            base["content"] = description + [{"type": "terminal", "terminalId": call_id}]
            base["_meta"] = {"terminal_exit": {"terminal_id": call_id, "exit_code": view.get("exitCode"),
                                               "signal": view.get("signal")}}
            return [live, base]
        if output != "":
            base["content"] = [text_content(terminal_fallback_text(output))]
        return [base]
    raise RenderIntentError("unreachable-variant", "unknown card %r" % (card,))


# --- a terminal renderer (the terminal-renderer suite): the artifact when it is valid, else the value ---

def render_rows(rows):
    if not isinstance(rows, list):
        return ""
    lines = []
    for row in rows[:200]:
        if is_dict(row):
            lines.append("  ".join("%s=%s" % (k, v if isinstance(v, str) else safe_json(v)) for k, v in row.items()))
    return "\n".join(lines)


def render_terminal(result):
    """Draws a tool result for a terminal: every untrusted string through the sanitiser, the value as the fallback."""
    value = tool_result_value(result)
    art = tool_result_artifact(result) if isinstance(result, dict) else None
    body, payload = None, art["payload"] if art else None
    if art is not None and is_dict(payload):
        kind = art["kind"]
        if kind in ("text", "code") and isinstance(payload.get("text"), str):
            body = payload["text"]
        elif kind == "error" and isinstance(payload.get("message"), str):
            body = payload["message"]
        elif kind == "table":
            body = render_rows(payload.get("df"))
        elif kind == "diff" and isinstance(payload.get("old"), str) and isinstance(payload.get("new"), str):
            body = "\n".join(["- " + l for l in payload["old"].splitlines()] + ["+ " + l for l in payload["new"].splitlines()])
        elif kind == "image" and isinstance(payload.get("images"), list):
            body = "[%d image(s)]" % len(payload["images"])
    if body is None:
        body = value
    title = art["title"] if art is not None and isinstance(art.get("title"), str) else None
    text = body if title is None else "%s\n%s" % (title, body)
    status = "\u2717 " if art is not None and art["status"] == "error" else ""
    # No colour: every escape goes, SGR too; and the bidi marks a terminal would honour (LRM, RLM, ALM).
    return status + BIDI_MARKS.sub("", sanitize_terminal_text(text, {"keepSgr": False}))


BIDI_MARKS = re.compile("[\u200e\u200f\u061c]")


# --- skills: argument substitution and slash commands (CONTRACTS.md section 5) ---

# JavaScript's white space (String.prototype.trim, \s), which differs from Python's.
JS_WS = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
JS_WS_RUN = re.compile("[%s]+" % JS_WS)
JS_TRIM = re.compile("^[%s]+|[%s]+$" % (JS_WS, JS_WS))
PLACEHOLDER = re.compile(r"\$(?:ARGUMENTS|ARG([1-9][0-9]*))")
SLASH = re.compile(r"^/([a-z0-9]+(?:-[a-z0-9]+)*)(?:[%s]+([\s\S]*))?$" % JS_WS)


def js_trim(text):
    return JS_TRIM.sub("", text)


def substitute_arguments(body, args):
    """$ARGUMENTS and $ARG1..$ARGn in one pass; no placeholder and some args: appended as ARGUMENTS: <args>."""
    raw = js_trim(args)
    parts = [] if raw == "" else JS_WS_RUN.split(raw)
    used = []

    def put(m):
        used.append(True)
        if m.group(1) is None:
            return raw
        n = int(m.group(1))
        return parts[n - 1] if n <= len(parts) else m.group(0)
    out = PLACEHOLDER.sub(put, body)
    if not used and raw != "":
        return "%s\n\nARGUMENTS: %s" % (out.rstrip("\n"), raw)
    return out


def parse_slash_command(text):
    """`/name args` -> {name, args}, or None when it is not a command (a path, a bad name)."""
    m = SLASH.match(re.sub("^[%s]+" % JS_WS, "", text))
    if not m or len(m.group(1)) > 64:
        return None
    return {"name": m.group(1), "args": js_trim(m.group(2) or "")}


# --- cards with colour off (the terminal-views suite): the renderer draws its own frames ---

class RenderIntentError(Exception):
    """render-intent's error: an unknown card is a bug the closed union turns into an error."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def plain(text):
    return BIDI_MARKS.sub("", sanitize_terminal_text(text, {"keepSgr": False}))


def block_lines(blocks):
    out = []
    for b in blocks:
        if is_dict(b) and b.get("type") == "text" and isinstance(b.get("text"), str):
            out.append(plain(b["text"]))
        elif is_dict(b) and b.get("type") == "image":
            out.append("[image %s]" % plain(str(b.get("mime", "?"))))
    return out


def diff_lines(diffs):
    out = []
    for d in diffs:
        out.append("--- %s" % plain(d["path"]))
        old = d.get("oldText")
        out.extend("- " + plain(l) for l in (old.splitlines() if isinstance(old, str) else []))
        out.extend("+ " + plain(l) for l in d["newText"].splitlines())
    return out


def unknown_card(view):
    raise RenderIntentError("unreachable-variant", "unreachable variant in renderTerminalView: %s" % safe_json(view))


def render_call_card(view):
    card, title = view.get("card"), plain(view.get("title", ""))
    if card == "generic":
        lines = ["\u25cf %s  (%s)" % (title, plain(str(view.get("kind", "other"))))]
        for loc in view.get("locations", []):
            lines.append("  %s%s" % (plain(loc["path"]), ":%d" % loc["line"] if "line" in loc else ""))
        content = block_lines(view.get("content", []))
        if not content and "rawInput" in view:
            content = [plain(safe_json(view["rawInput"], 2000))]
        return "\n".join(lines + ["  " + l for l in content])
    if card == "terminal":
        lines = ["$ %s" % title]
        if view.get("description"):
            lines.append("  %s" % plain(view["description"]))
        if view.get("cwd"):
            lines.append("  in %s" % plain(view["cwd"]))
        return "\n".join(lines)
    if card == "diff":
        return "\n".join(["\u270e %s" % title] + diff_lines(view["diffs"]))
    return unknown_card(view)


def render_result_card(view, data):
    card = view.get("card")
    value = data.get("value") if isinstance(data.get("value"), str) else ""
    head = [plain(view["title"])] if isinstance(view.get("title"), str) else []
    if card == "generic":
        art = tool_result_artifact({"value": value, "extra": {"codeagent": {"artifact": data["artifact"]}}}) \
            if "artifact" in data else None
        body = None
        if art is not None and art["kind"] in ("text", "code", "error", "table", "diff"):
            body = render_terminal({"value": value, "extra": {"codeagent": {"artifact": art}}})
            if art["kind"] == "table":
                names = [n for row in art["payload"].get("df", []) if is_dict(row) for n in row]
                body = plain("  ".join(dict.fromkeys(names))) + "\n" + body
        if body is None:
            content = block_lines(view.get("content", []))
            body = "\n".join(content) if content else plain(value)
        return "\n".join(head + [body])
    if card == "terminal":
        output = view["output"] if isinstance(view.get("output"), str) else value
        lines = head + [plain(output).rstrip("\n")]
        if "exitCode" in view:
            lines.append("exit %d" % view["exitCode"])
        if isinstance(view.get("signal"), str):
            lines.append("signal %s" % plain(view["signal"]))
        return "\n".join(lines)
    if card == "diff":
        return "\n".join(head + diff_lines(view["diffs"]))
    return unknown_card(view)


def render_terminal_view(card):
    """One call or result card, colour off, at 80 columns (long lines are left to the terminal)."""
    if "call" in card:
        return render_call_card(card["call"])
    return render_result_card(card["result"], card.get("data") or {})


# --- the built-in tools' presenters (render-intent createBuiltinPresenters, CONTRACTS.md section 2) ---

def same_part(a, b, win):
    return a.lower() == b.lower() if win else a == b


def display_path(path, cwd=None):
    """The path to show in a title: relative to cwd when inside it (`.` for cwd itself), else absolute."""
    if cwd is None:
        return path
    base = parse_absolute(cwd)
    if base is None:
        return path
    resolved = resolve_path(path, cwd)
    target = parse_absolute(resolved)
    if target is None:
        return path
    inside = base["win"] == target["win"] and same_part(base["root"], target["root"], base["win"]) and \
        len(target["segs"]) >= len(base["segs"]) and \
        all(same_part(seg, target["segs"][i], base["win"]) for i, seg in enumerate(base["segs"]))
    if not inside:
        return format_path(target)
    rel = target["segs"][len(base["segs"]):]
    if not rel:
        return "."
    sep = "/" if base["win"] and "\\" not in path and "/" in path else base["sep"]
    return sep.join(rel)


def text_lines(text):
    """Lines with their `\\n` kept (a last line without one stays without: that difference is a change)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def hunk_diffs(path, before, after, context=3, max_edit=1000):
    """One FileDiff per hunk with `context` lines around each change; past `max_edit` lines, the whole file."""
    if before == after:
        return []
    a, b = text_lines(before), text_lines(after)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    edits = sum((i2 - i1) + (j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")
    if edits > max_edit:
        return [{"path": path, "oldText": before if before != "" else None, "newText": after}]
    out = []
    for group in matcher.get_grouped_opcodes(context):
        i1, j1 = group[0][1], group[0][3]
        i2, j2 = group[-1][2], group[-1][4]
        old = "".join(a[i1:i2])
        out.append({"path": path, "oldText": old if i2 > i1 else None, "newText": "".join(b[j1:j2])})
    return out


def pos_int(o, k):
    v = o.get(k)
    return v if is_safe_int(v) and v >= 1 else None


def opt_str(o, k):
    return o.get(k) if isinstance(o.get(k), str) else None


def builtin_presenters(cwd):
    absolute = lambda p: resolve_path(p, cwd)  # noqa: E731
    shown = lambda p: display_path(p, cwd)  # noqa: E731

    def file_change(path, result):
        meta = result.get("meta")
        if result["isError"] or not is_dict(meta) or not isinstance(meta.get("after"), str):
            return None
        before = meta.get("before")
        if before is not None and not isinstance(before, str):
            return None
        diffs = [{"path": absolute(path), "oldText": None, "newText": meta["after"]}] if before is None \
            else hunk_diffs(absolute(path), before, meta["after"])
        if not diffs:
            diffs = [{"path": absolute(path), "oldText": before, "newText": meta["after"]}]
        return {"card": "diff", "diffs": diffs}

    def read_call(args):
        path = opt_str(args, "file_path") if is_dict(args) else None
        if path is None:
            return None
        offset, limit = pos_int(args, "offset"), pos_int(args, "limit")
        start = offset or 1
        window = " (%d - %d)" % (start, start + limit - 1) if limit is not None else \
            " (from line %d)" % offset if offset is not None else ""
        return {"card": "generic", "title": "Read %s%s" % (shown(path), window), "kind": "read",
                "locations": [{"path": absolute(path), "line": start}]}

    def write_call(args):
        path, content = (opt_str(args, "file_path"), opt_str(args, "content")) if is_dict(args) else (None, None)
        if path is None or content is None:
            return None
        return {"card": "diff", "title": "Write %s" % shown(path),
                "diffs": [{"path": absolute(path), "oldText": None, "newText": content}],
                "locations": [{"path": absolute(path)}]}

    def edit_call(args):
        path, old = (opt_str(args, "file_path"), opt_str(args, "old_string")) if is_dict(args) else (None, None)
        if path is None or old is None:
            return None
        return {"card": "diff", "title": "Edit %s" % shown(path),
                "diffs": [{"path": absolute(path), "oldText": old or None, "newText": opt_str(args, "new_string") or ""}],
                "locations": [{"path": absolute(path)}]}

    def changed(args, result):
        path = opt_str(args, "file_path") if is_dict(args) else None
        return None if path is None else file_change(path, result)

    def bash_call(args):
        command = opt_str(args, "command") if is_dict(args) else None
        if command is None:
            return None
        description = opt_str(args, "description")
        if args.get("run_in_background") is True:
            view = {"card": "generic", "title": command, "kind": "execute", "rawInput": args}
            if description is not None:
                view["content"] = [{"type": "text", "text": description}]
            return view
        view = {"card": "terminal", "title": command}
        if description is not None:
            view["description"] = description
        if cwd is not None:
            view["cwd"] = cwd
        return view

    def bash_result(args, result):
        meta = result.get("meta") if is_dict(result.get("meta")) else {}
        output = meta["output"] if isinstance(meta.get("output"), str) else result["value"]
        exit_code = meta.get("exitCode") if is_safe_int(meta.get("exitCode")) else None
        signal = meta.get("signal") if isinstance(meta.get("signal"), str) and meta.get("signal") else None
        background = is_dict(args) and args.get("run_in_background") is True
        if background or (result["isError"] and exit_code is None and signal is None):
            return {"card": "generic", "content": [{"type": "text", "text": terminal_fallback_text(output)}]}
        if signal is not None:
            return {"card": "terminal", "output": output, "signal": signal}
        if exit_code is not None:
            return {"card": "terminal", "output": output, "exitCode": exit_code}
        return {"card": "terminal", "output": output}

    def todo_call(args):
        if not is_dict(args) or not isinstance(args.get("todos"), list):
            return None
        todos = [t for t in args["todos"] if is_dict(t)]
        count = lambda status: sum(1 for t in todos if t.get("status") == status)  # noqa: E731
        text = "Clears the list" if not todos else "%d %s: %d completed, %d in progress, %d pending" % (
            len(todos), "item" if len(todos) == 1 else "items", count("completed"), count("in_progress"),
            count("pending"))
        return {"card": "generic", "title": "Update todos", "kind": "other",
                "content": [{"type": "text", "text": text}], "rawInput": args}

    return {"Read": {"call": read_call}, "Write": {"call": write_call, "result": changed},
            "Edit": {"call": edit_call, "result": changed}, "Bash": {"call": bash_call, "result": bash_result},
            "TodoWrite": {"call": todo_call}}


def present_builtin(cwd, tool, args, result):
    """The built-in presenters through the presenter's rules: {call, result} views of one call and its result."""
    entry = builtin_presenters(cwd).get(tool)
    call = entry["call"](args) if entry else None
    if call is not None and not is_call_view(call):
        call = None
    if call is None:
        call = {"card": "generic", "title": tool, "kind": "other", "rawInput": args}
    raw = to_content_blocks(result.get("content"))
    given = {"content": raw, "value": text_of(raw), "isError": result.get("isError") is True}
    if "meta" in result:
        given["meta"] = result["meta"]
    view = entry["result"](args, given) if entry and "result" in entry else None
    if view is None or not is_result_view(view):
        view = {"card": "generic", "content": raw}
    elif view["card"] == "terminal" and call["card"] != "terminal":
        fallback = {"card": "generic", "content": raw if "output" not in view else
                    [{"type": "text", "text": terminal_fallback_text(view["output"])}]}
        if "title" in view:
            fallback["title"] = view["title"]
        view = fallback
    elif view["card"] == "generic" and "content" not in view:
        view = dict(view, content=raw)
    return {"call": call, "result": view}


OPS = {
    "presentBuiltin": present_builtin,
    "renderTerminalView": render_terminal_view,
    "substituteArguments": substitute_arguments,
    "parseSlashCommand": parse_slash_command,
    "presentSession": present_session,
    "acpToolCall": acp_tool_call,
    "acpToolResult": acp_tool_result,
    "renderTerminal": render_terminal,
    "mapStopReason": map_stop_reason,
    "terminalFallbackText": terminal_fallback_text,
    "acpStopReason": acp_stop_reason,
    "toolResultArtifact": tool_result_artifact,
    "toolResultValue": tool_result_value,
    "adaptToolResult": adapt_tool_result,
    "escapeHtml": escape_html,
    "toolResult": tool_result,
    "sanitizeTerminalText": sanitize_terminal_text,
    "normalizeToolOutput": normalize_tool_output,
}


def answer(request):
    rid = request.get("id") if isinstance(request, dict) else None
    op = request.get("op") if isinstance(request, dict) else None
    args = request.get("args") if isinstance(request, dict) else None
    if op not in OPS or not isinstance(args, list):
        return {"id": rid, "ok": False, "error": {"name": "Unsupported", "message": "unknown op %r" % (op,)}}
    try:
        return {"id": rid, "ok": True, "result": OPS[op](*args)}
    except ArtifactTypeError as e:
        return {"id": rid, "ok": False, "error": {"name": "TypeError", "code": e.code, "message": str(e)}}
    except RenderIntentError as e:
        return {"id": rid, "ok": False, "error": {"name": "RenderIntentError", "code": e.code, "message": str(e)}}
    except Exception as e:  # a bug in this host: reported, never a crash of the run
        return {"id": rid, "ok": False, "error": {"name": type(e).__name__, "message": str(e)}}


def main():
    # A 10,000-level payload is valid JSON: parse it rather than fail the vector on the recursion limit.
    sys.setrecursionlimit(100000)
    out = sys.stdout
    out.write(json.dumps({"type": "hello", "protocol": "codeagent.conformance/1", "name": "python reference host",
                          "ops": sorted(OPS)}) + "\n")
    out.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        out.write(json.dumps(answer(request), ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
