#!/usr/bin/env python3
"""table.py OUT PATCH...: the table of the planted-bug study from OUT/<id>/runs.tsv."""
import os, re, sys

out, patches = sys.argv[1], sys.argv[2:]
desc = {}
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "descriptions.txt")):
    if ";" in line and not line.startswith("#"):
        k, v = line.rstrip("\n").split(";", 1)
        desc[k] = v

def runs(d):
    rows = []
    p = os.path.join(out, d, "runs.tsv")
    if os.path.exists(p):
        for line in open(p):
            f = line.rstrip("\n").split("\t")
            f += [""] * (7 - len(f))
            name, expect, rcs, crc, status, same, refusal = f[:7]
            rcs = [int(x) for x in rcs.split(",")]
            if all(r == 20 for r in rcs):
                ans = "U"
            elif any(r == 10 for r in rcs):
                ans = "S"
            elif any(r == 124 for r in rcs):
                ans = "TIMEOUT"
            else:
                ans = "ERR" + ",".join(str(r) for r in rcs if r not in (10, 20))
            rows.append(dict(name=name, expect=expect, ans=ans, crc=int(crc), status=status,
                             same=same, refusal=refusal,
                             accepted=(status == "s VERIFIED" and int(crc) == 0)))
    return rows

FAMILY_GROUPS = {"paired": {"sq", "un"}, "torus": {"to", "ut"}, "armies": {"a"},
                 "common": {"sq", "un", "to", "ut"}}

def group(r):
    return re.match(r"[a-z]+", r["name"]).group(0)

base = runs("baseline")
bad = [r["name"] for r in base if r["ans"] != r["expect"] or r["accepted"] != (r["expect"] == "U")]
print(f"baseline: {len(base)} steps, " + ("all as expected (UNSAT steps verified, SAT steps SAT)" if not bad else f"UNEXPECTED: {bad}"))
print()
hdr = ("family", "bug", "description", "writer answer", "pq-check verdict", "class")
lines = []
tally = {}
detail = []
for patch in patches:
    bid = os.path.basename(patch)[:-len(".patch")]
    fam = bid.rsplit("-", 1)[0]
    st = open(os.path.join(out, bid, "buildstatus")).read().strip() if os.path.exists(os.path.join(out, bid, "buildstatus")) else "?"
    everything = runs(bid)
    # A family is judged on its own steps (common: every two-army step); steps of other
    # families that a bug also changed are noted after the verdict.
    mine = FAMILY_GROUPS.get(fam)
    rs = [r for r in everything if mine is None or group(r) in mine]
    elsewhere = [r for r in everything if r not in rs and r["ans"] == "U" and not r["accepted"]]
    if st != "ok" or not rs:
        cls, ans, ver = "NO-CERT", "build failed", "-"
    else:
        caught = [r for r in rs if r["ans"] == "U" and not r["accepted"]]
        missed = [r for r in rs if r["accepted"] and (r["expect"] == "S" or r["ans"] != "U")]
        ok = [r for r in rs if r["ans"] == "U" and r["accepted"] and r["expect"] == "U"]
        claims = [r for r in rs if r["ans"] == "U"]
        changes = {}
        for r in rs:
            if r["ans"] != r["expect"]:
                key = {("S", "U"): "false UNSAT", ("U", "S"): "false SAT"}.get((r["expect"], r["ans"]), r["ans"])
                changes.setdefault(key, []).append(r["name"])
        ans = "as unpatched" if not changes else "; ".join(f"{k} {len(v)}: {','.join(v[:4])}{',…' if len(v) > 4 else ''}" for k, v in changes.items())
        if missed:
            cls = "MISSED"
        elif caught:
            cls = "CAUGHT"
        elif ok:
            cls = "HARMLESS"
        else:
            cls = "NO-CERT"
        if caught:
            msg = re.sub(r"^c refused at byte offset \d+: ", "", caught[0]["refusal"])
            per = {}
            for r in claims:
                g = per.setdefault(group(r), [0, 0])
                g[1] += 1
                g[0] += r in caught
            counts = ", ".join(f"{g} {a}/{b}" for g, (a, b) in per.items() if a)
            ver = f"refused {counts} (first {caught[0]['name']}: {msg[:120]})"
        elif missed:
            ver = f"ACCEPTED false claims: {','.join(r['name'] for r in missed)}"
        elif ok:
            nd = sum(1 for r in ok if r["same"] == "diff")
            ver = f"s VERIFIED {len(ok)}/{len(claims)}; {nd} certificate(s) differ from unpatched" if nd else f"s VERIFIED {len(ok)}/{len(claims)}; certificates identical to unpatched"
        else:
            ver = "no certificate"
        if elsewhere:
            ver += f" [other families' steps also refused: {','.join(r['name'] for r in elsewhere[:3])}{',…' if len(elsewhere) > 3 else ''}]"
        detail.append((bid, everything))
    tally.setdefault(fam, {"CAUGHT": 0, "HARMLESS": 0, "MISSED": 0, "NO-CERT": 0})[cls] += 1
    lines.append((fam, bid, desc.get(bid, "?"), ans, ver, cls))

print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
for l in lines:
    print("| " + " | ".join(x.replace("|", "/") for x in l) + " |")
print()
print("| family | caught | harmless | missed | no-cert |")
print("|---|---|---|---|---|")
for fam, t in tally.items():
    print(f"| {fam} | {t['CAUGHT']} | {t['HARMLESS']} | {t['MISSED']} | {t['NO-CERT']} |")
tot = {k: sum(t[k] for t in tally.values()) for k in ("CAUGHT", "HARMLESS", "MISSED", "NO-CERT")}
print(f"| all | {tot['CAUGHT']} | {tot['HARMLESS']} | {tot['MISSED']} | {tot['NO-CERT']} |")
with open(os.path.join(out, "detail.txt"), "w") as f:
    for bid, rs in detail:
        f.write(f"== {bid}: {desc.get(bid, '?')}\n")
        for r in rs:
            f.write(f"  {r['name']:15} exp={r['expect']} writer={r['ans']:8} check_rc={r['crc']} {r['status']:16} {r['same']:4} {r['refusal'][:200]}\n")
