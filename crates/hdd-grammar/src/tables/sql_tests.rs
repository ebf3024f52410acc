//! Facts of the SQL table (tree-sitter-sequel), its external representatives
//! in context, and its validation against the linked parser.

use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, parse_clean, separator_of, yield_of,
};
use crate::Lang;

const SQL: Lang = Lang::Sql;

#[test]
fn sql_facts() {
    let table = SQL.table();
    // Keywords are case-insensitive patterns (`[sS][eE][lL]...`), rendered lower-case.
    assert_eq!(yield_of(SQL, "keyword_select"), "select");
    assert_eq!(yield_of(SQL, "keyword_from"), "from");
    assert_eq!(yield_of(SQL, "statement"), "truncate");
    assert_eq!(yield_of(SQL, "select"), "select*");
    assert_eq!(yield_of(SQL, "from"), "from a");
    assert_eq!(yield_of(SQL, "where"), "where?");
    assert_eq!(yield_of(SQL, "insert"), "insert a select*");
    assert_eq!(yield_of(SQL, "update"), "update a set a= ?");
    assert_eq!(yield_of(SQL, "create_index"), "create index on a()");
    assert_eq!(yield_of(SQL, "join"), "join a on?");
    assert_eq!(yield_of(SQL, "program"), "");
    assert_eq!(yield_of(SQL, "literal"), "0");
    assert_eq!(yield_of(SQL, "dollar_quote"), "$$");
    assert_eq!(separator_of(SQL, "program"), Some(";"));
    for list in [
        "select_expression",
        "column_definitions",
        "list",
        "order_by",
        "group_by",
    ] {
        assert_eq!(separator_of(SQL, list), Some(","), "{list}");
    }
    assert_eq!(separator_of(SQL, "select"), None);
    for kind in table.kinds {
        assert!(
            !kind.min_yield.chars().any(|c| c.is_ascii_uppercase()),
            "{}: {:?} is not lower-case",
            kind.name,
            kind.min_yield
        );
    }
    let from = table.slot("from", None).unwrap();
    assert!(from.required && from.multiple);
    for kind in [
        "statement",
        "select",
        "insert",
        "update",
        "create_index",
        "create_table",
    ] {
        parse_clean(SQL, &format!("{};", yield_of(SQL, kind)));
    }
}

#[test]
fn sql_externals_parse_in_context() {
    check_externals(
        SQL,
        &[
            (
                "_dollar_quoted_string_start_tag",
                "create function f() returns int as @ select 1; $$ language sql;",
                "dollar_quote",
            ),
            (
                "_dollar_quoted_string_end_tag",
                "create function f() returns int as $$ select 1; @ language sql;",
                "dollar_quote",
            ),
            ("_dollar_quoted_string", "select @;", "literal"),
        ],
        &[],
    );
}

#[test]
fn sql_no_version_drift() {
    check_no_drift(SQL, 300);
}

const SAMPLE: &str = r"-- A small shop schema.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  email TEXT UNIQUE,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id),
  amount DECIMAL(10, 2) NOT NULL,
  status VARCHAR(20) DEFAULT 'new'
);

CREATE INDEX idx_orders_user ON orders (user_id);
CREATE UNIQUE INDEX idx_users_email ON users (email);

INSERT INTO users (id, name, email) VALUES (1, 'Ada', 'ada@example.com'), (2, 'Bob', NULL);
INSERT INTO orders (id, user_id, amount) VALUES (10, 1, 9.99);

/* Who spends the most? */
SELECT u.name, COUNT(o.id) AS n, SUM(o.amount) AS total
FROM users AS u
LEFT JOIN orders o ON o.user_id = u.id
WHERE u.email IS NOT NULL AND o.amount > 5
GROUP BY u.name
HAVING COUNT(o.id) > 1
ORDER BY total DESC
LIMIT 10;

SELECT DISTINCT status FROM orders WHERE amount BETWEEN 1 AND 100;

WITH big AS (SELECT * FROM orders WHERE amount > 100)
SELECT b.id, u.name FROM big b INNER JOIN users u ON u.id = b.user_id;

UPDATE orders SET status = 'shipped', amount = amount * 1.1
WHERE id IN (SELECT id FROM orders WHERE status = 'new');

DELETE FROM users WHERE id NOT IN (SELECT user_id FROM orders);

SELECT CASE WHEN amount > 50 THEN 'high' ELSE 'low' END AS band FROM orders;

CREATE FUNCTION add_one(x integer) RETURNS integer AS $$ SELECT x + 1; $$ LANGUAGE sql;

DROP TABLE IF EXISTS old_orders;
";

#[test]
fn sql_min_yields_parse_in_place() {
    check_min_yields_in_place(SQL, SAMPLE, 60);
}
