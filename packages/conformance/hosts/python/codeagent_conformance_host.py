#!/usr/bin/env python3
"""A reference host for the codeagent artifact protocol (v1), in Python with the standard library only.

It implements the artifact accessors and the HTML trust boundary the way CONTRACTS.md section 1 states them, and
speaks the conformance kit's NDJSON protocol on stdio: a hello line, then one JSON answer per JSON request line.
Run it with the kit:  codeagent-conformance --host "python3 codeagent_conformance_host.py"
"""
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


def is_bidi(c):
    return 0x202A <= c <= 0x202E or 0x2066 <= c <= 0x2069


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


def sanitize_terminal_text(text, options=None):
    """Keeps SGR, \\n and \\t; strips every other escape, C0/C1 controls, DEL and bidi overrides/isolates."""
    s = js_string(text)
    keep_sgr = not (isinstance(options, dict) and options.get("keepSgr") is False)
    out, start, i = [], 0, 0
    while i < len(s):
        c = ord(s[i])
        unsafe = (c not in (0x09, 0x0A)) if c < 0x20 else (c == 0x7F or 0x80 <= c <= 0x9F or is_bidi(c))
        if not unsafe:
            i += 1
            continue
        out.append(s[start:i])
        kept = []
        i = skip_control(s, i, c, kept.append)
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


OPS = {
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
    except Exception as e:  # a bug in this host: reported, never a crash of the run
        return {"id": rid, "ok": False, "error": {"name": type(e).__name__, "message": str(e)}}


def main():
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
