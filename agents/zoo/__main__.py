"""``python -m agents.zoo``: every member with its split, recorded duo win rate and
fingerprint, the fingerprint it plays now, and whether the two agree.

A member whose fingerprint changed plays differently from the one measured: bump its
``version`` in ``members.yaml``, measure its win rate again
(``python scripts/evaluate.py --task duo --policy zoo:NAME --games 200``) and write both.
When every fingerprint changes at once, the engine's rules changed (a new env version):
re-record them all.
"""

from __future__ import annotations

from agents.zoo import fingerprint, list_members, member


def main() -> None:
    print(f"{'member':<24} {'split':<8} {'duo self-play':<15} {'recorded':<17} {'now':<17}")
    changed = 0
    for name in list_members():
        m = member(name)
        now = fingerprint(name) if m.fingerprint is not None else "-"
        rate = f"{m.duo_win_rate:.3f} ({m.duo_self_play['games']})"
        flag = "" if m.fingerprint in (None, now) else "  CHANGED"
        changed += bool(flag)
        print(f"{m.label:<24} {m.split:<8} {rate:<15} {m.fingerprint or '-':<17} {now:<17}"
              f"{flag}")
    if changed:
        raise SystemExit(f"{changed} member(s) play differently from their recorded "
                         "fingerprint (see the module docstring)")


if __name__ == "__main__":
    main()
