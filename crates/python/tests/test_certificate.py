"""Certificates: a search certificate and a bundle written by solve, checked by
check_certificate as pq-check and `pq-sat check-certificate` check them."""

import json

import pytest

import pqsat
from conftest import run_cli


def test_a_search_certificate_checked_by_pq_check(in_tmp):
    r = pqsat.solve(dim=6, n=6, certificate="c6.txt")
    assert r.status == "unsat" and r.certificate["format"] == "search"
    check = pqsat.check_certificate("c6.txt")
    assert check and check.valid and "VERIFIED" in str(check)
    assert json.loads(check.to_json())["verified"] is True
    # Tampered with, it is not verified.
    data = (in_tmp / "c6.txt").read_bytes()
    (in_tmp / "cut.txt").write_bytes(data[: len(data) // 2])
    assert not pqsat.check_certificate("cut.txt")


def test_no_certificate_for_a_sat_answer(in_tmp):
    r = pqsat.solve(dim=6, n=5, certificate="none.txt")
    assert r.status == "sat" and not (in_tmp / "none.txt").exists()


@pytest.mark.parametrize("form", [None, "drat"])
def test_a_bundle_checked_as_the_command_line_checks_it(in_tmp, form):
    r = pqsat.solve(dim=5, certificate="bundle", certificate_format=form)
    assert r.optimum == 4 and r.certificate["claim"] == "a(5) = 4"
    assert r.certificate["proof_format"] == (form or "search")
    check = pqsat.check_certificate("bundle")
    assert check.valid
    cli = run_cli("check-certificate", "bundle", "--format", "json", check_codes=[0])
    ours, theirs = json.loads(check.to_json()), json.loads(cli.stdout)
    assert ours["valid"] == theirs["valid"] and ours["claim"] == theirs["claim"]
    assert [c["check"] for c in ours["checks"]] == [c["check"] for c in theirs["checks"]]
    # A bundle tampered with is invalid, for both.
    witness = in_tmp / "bundle" / "witness.txt"
    witness.write_text(witness.read_text().replace("W", "B", 1))
    assert not pqsat.check_certificate("bundle")
    run_cli("check-certificate", "bundle", check_codes=[1])


def test_a_missing_certificate_is_an_error():
    with pytest.raises(pqsat.Error):
        pqsat.check_certificate("no-such-dir/")
