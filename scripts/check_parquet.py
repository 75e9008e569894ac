#!/usr/bin/env python3
"""Reads a niuniu job's Parquet output with DuckDB and checks it as a user would see it.

Usage: check_parquet.py OUT_ROOT JOB_NAME

Checks the schema, the row count, that every hand appears once, that category totals
agree between hands.parquet and categories.parquet and sum to C(52,5), the exact
head-to-head identity (win counts sum to half of all ordered pairs of disjoint hands),
and that the rules travel in the file's key-value metadata. Exits non-zero on failure.
"""

import sys
from pathlib import Path

import duckdb

HANDS = 2_598_960
OPPONENTS = 1_533_939

EXPECTED_HANDS_SCHEMA = {
    "hand_index": "UINTEGER",
    "cards": "VARCHAR",
    "c1": "UTINYINT",
    "c2": "UTINYINT",
    "c3": "UTINYINT",
    "c4": "UTINYINT",
    "c5": "UTINYINT",
    "category": "VARCHAR",
    "category_rank": "UTINYINT",
    "bull": "UTINYINT",
    "point_total": "UTINYINT",
    "grouping": "VARCHAR",
    "high_card": "VARCHAR",
    "strength": "USMALLINT",
    "multiplier": "USMALLINT",
    "wins": "UINTEGER",
    "win_probability": "DOUBLE",
    "banker_ev": "DOUBLE",
}


def fail(message: str) -> None:
    print(f"check_parquet: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def one(con, sql: str, *params):
    return con.execute(sql, list(params)).fetchone()


def main() -> None:
    if len(sys.argv) != 3:
        fail("usage: check_parquet.py OUT_ROOT JOB_NAME")
    folder = Path(sys.argv[1]) / "tables" / sys.argv[2]
    hands = str(folder / "hands.parquet")
    categories = str(folder / "categories.parquet")
    con = duckdb.connect()

    schema = {
        row[0]: row[1]
        for row in con.execute(f"DESCRIBE SELECT * FROM read_parquet('{hands}')").fetchall()
    }
    if schema != EXPECTED_HANDS_SCHEMA:
        fail(f"hands.parquet schema is {schema}")

    rows, distinct, low, high = one(
        con,
        f"SELECT count(*), count(DISTINCT hand_index), min(hand_index), max(hand_index) "
        f"FROM '{hands}'",
    )
    if (rows, distinct, low, high) != (HANDS, HANDS, 0, HANDS - 1):
        fail(f"hand_index: rows={rows} distinct={distinct} range={low}..{high}")

    (distinct_cards,) = one(con, f"SELECT count(DISTINCT cards) FROM '{hands}'")
    if distinct_cards != HANDS:
        fail(f"{distinct_cards} distinct card texts, expected {HANDS}")

    mismatches = con.execute(
        f"""
        WITH h AS (SELECT category, count(*) AS n FROM '{hands}' GROUP BY category)
        SELECT c.category, c.count, h.n
        FROM '{categories}' c FULL OUTER JOIN h USING (category)
        WHERE c.count IS DISTINCT FROM h.n
        """
    ).fetchall()
    if mismatches:
        fail(f"category counts disagree between the two files: {mismatches}")
    total, probability = one(con, f"SELECT sum(count), sum(probability) FROM '{categories}'")
    if total != HANDS or abs(probability - 1.0) > 1e-12:
        fail(f"categories sum to {total} hands, probability {probability}")

    (wins,) = one(con, f"SELECT sum(wins::HUGEINT) FROM '{hands}'")
    if 2 * wins != HANDS * OPPONENTS:
        fail(f"win counts sum to {wins}, expected {HANDS * OPPONENTS // 2}")

    (bad_bull,) = one(
        con,
        f"SELECT count(*) FROM '{hands}' "
        f"WHERE (bull IS NULL) <> (grouping IS NULL) OR bull <> point_total % 10",
    )
    if bad_bull:
        fail(f"{bad_bull} hands have a bull number inconsistent with points or grouping")

    metadata = {
        row[0].decode() if isinstance(row[0], bytes) else row[0]: row[1]
        for row in con.execute(
            f"SELECT key, value FROM parquet_kv_metadata('{hands}')"
        ).fetchall()
    }
    if metadata.get("pipeline.kind", b"") not in (b"niuniu.hands", "niuniu.hands"):
        fail(f"pipeline.kind missing from metadata: {sorted(metadata)}")
    if "pipeline.rules" not in metadata:
        fail("pipeline.rules missing from metadata")

    print(
        f"check_parquet: ok: {folder} ({rows} hands, {len(mismatches) or 'all'} categories "
        f"agree, win counts sum to exactly half of all disjoint pairs)"
    )


if __name__ == "__main__":
    main()
