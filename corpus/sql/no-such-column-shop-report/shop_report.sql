-- Monthly sales report for the web shop.
-- Schema v7: orders.total_cents was renamed to orders.amount_cents in the
-- 2024-02 migration (net amount, tax tracked separately in tax_cents).

CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    email VARCHAR(255) NOT NULL UNIQUE,
    full_name VARCHAR(120) NOT NULL,
    country CHAR(2) NOT NULL DEFAULT 'NL',
    created_at DATE NOT NULL,
    is_business BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    sku VARCHAR(32) NOT NULL UNIQUE,
    title VARCHAR(200) NOT NULL,
    category VARCHAR(40) NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    active BOOLEAN NOT NULL DEFAULT TRUE
);

CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    placed_at DATE NOT NULL,
    status VARCHAR(16) NOT NULL DEFAULT 'new',
    amount_cents INTEGER NOT NULL DEFAULT 0,
    tax_cents INTEGER NOT NULL DEFAULT 0,
    coupon VARCHAR(20)
);

CREATE TABLE order_items (
    order_id INTEGER NOT NULL REFERENCES orders (id),
    product_id INTEGER NOT NULL REFERENCES products (id),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    unit_price_cents INTEGER NOT NULL,
    PRIMARY KEY (order_id, product_id)
);

CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    refunded_at DATE NOT NULL,
    amount_cents INTEGER NOT NULL,
    reason TEXT
);

CREATE INDEX idx_orders_customer ON orders (customer_id);
CREATE INDEX idx_orders_placed ON orders (placed_at, status);
CREATE INDEX idx_items_product ON order_items (product_id);

-- customers
INSERT INTO customers (id, email, full_name, country, created_at, is_business) VALUES
    (1, 'anouk.jansen@example.com', 'Anouk Jansen', 'IE', '2023-03-01', TRUE),
    (2, 'pieter.bakker@example.com', 'Pieter Bakker', 'IE', '2023-07-11', FALSE),
    (3, 'sofia.rossi@example.com', 'Sofia Rossi', 'BE', '2023-09-16', FALSE),
    (4, 'lukas.weber@example.com', 'Lukas Weber', 'IT', '2023-03-05', TRUE),
    (5, 'emma.dubois@example.com', 'Emma Dubois', 'IT', '2023-02-01', FALSE),
    (6, 'noah.peeters@example.com', 'Noah Peeters', 'BE', '2023-03-11', FALSE),
    (7, 'mila.kowalska@example.com', 'Mila Kowalska', 'BE', '2023-12-08', TRUE),
    (8, 'daan.visser@example.com', 'Daan Visser', 'DE', '2023-08-02', FALSE),
    (9, 'olga.petrova@example.com', 'Olga Petrova', 'PL', '2023-01-11', FALSE),
    (10, 'jonas.berg@example.com', 'Jonas Berg', 'PL', '2023-11-12', TRUE),
    (11, 'chloe.martin@example.com', 'Chloé Martin', 'IE', '2023-07-11', TRUE),
    (12, 'finn.obrien@example.com', 'Finn O''Brien', 'FR', '2023-03-12', TRUE),
    (13, 'lena.hofmann@example.com', 'Lena Hofmann', 'IT', '2023-05-15', FALSE),
    (14, 'sam.de.wit@example.com', 'Sam de Wit', 'IT', '2023-05-06', TRUE);

-- catalogue
INSERT INTO products (id, sku, title, category, price_cents, active) VALUES
    (1, 'KIT-0101', 'Chef knife 20cm', 'kitchen', 1250, TRUE),
    (2, 'KIT-0102', 'Cutting board (oak)', 'kitchen', 2499, TRUE),
    (3, 'KIT-0103', 'Cast-iron pan 28cm', 'kitchen', 3995, TRUE),
    (4, 'KIT-0104', 'Espresso cups, set of 4', 'kitchen', 2499, TRUE),
    (5, 'GAR-0105', 'Pruning shears', 'garden', 499, TRUE),
    (6, 'GAR-0106', 'Hose reel 25m', 'garden', 499, TRUE),
    (7, 'GAR-0107', 'Raised bed kit', 'garden', 8999, TRUE),
    (8, 'OFF-0108', 'Desk lamp LED', 'office', 3995, TRUE),
    (9, 'OFF-0109', 'Monitor arm', 'office', 12900, FALSE),
    (10, 'OFF-0110', 'Notebook A5 dotted', 'office', 3995, TRUE),
    (11, 'OFF-0111', 'Fountain pen', 'office', 8999, TRUE),
    (12, 'OUT-0112', 'Trail backpack 30L', 'outdoor', 3995, TRUE),
    (13, 'OUT-0113', 'Camping stove', 'outdoor', 3995, TRUE),
    (14, 'OUT-0114', 'Headlamp 400lm', 'outdoor', 1250, TRUE);

-- orders and their lines (amounts are filled in by the UPDATE below)
-- 2024-01
INSERT INTO orders (id, customer_id, placed_at, status, coupon) VALUES
    (1, 10, '2024-01-15', 'paid', NULL),
    (2, 9, '2024-01-13', 'paid', NULL),
    (3, 2, '2024-01-14', 'shipped', NULL),
    (4, 7, '2024-01-20', 'cancelled', 'WELCOME5'),
    (5, 4, '2024-01-06', 'shipped', NULL),
    (6, 14, '2024-01-16', 'cancelled', NULL),
    (7, 1, '2024-01-28', 'new', NULL),
    (8, 4, '2024-01-11', 'paid', NULL),
    (9, 8, '2024-01-20', 'paid', 'SPRING10'),
    (10, 2, '2024-01-27', 'paid', NULL);
INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents) VALUES
    (1, 9, 2, 12900),
    (1, 7, 2, 8999),
    (2, 5, 1, 499),
    (3, 12, 1, 3995),
    (4, 10, 4, 3995),
    (4, 4, 4, 2499),
    (4, 5, 2, 499),
    (5, 13, 1, 3995),
    (5, 9, 4, 12900),
    (6, 4, 3, 2499),
    (6, 8, 1, 3995),
    (6, 6, 2, 499),
    (7, 1, 4, 1250),
    (8, 13, 3, 3995),
    (8, 3, 1, 3995),
    (9, 5, 3, 499),
    (10, 3, 2, 3995),
    (10, 11, 2, 8999),
    (10, 13, 1, 3995);

-- 2024-02
INSERT INTO orders (id, customer_id, placed_at, status, coupon) VALUES
    (11, 6, '2024-02-27', 'paid', 'WELCOME5'),
    (12, 5, '2024-02-14', 'new', NULL),
    (13, 10, '2024-02-15', 'paid', 'WELCOME5'),
    (14, 5, '2024-02-17', 'new', NULL),
    (15, 7, '2024-02-06', 'shipped', 'WELCOME5'),
    (16, 8, '2024-02-18', 'paid', NULL),
    (17, 11, '2024-02-08', 'shipped', NULL),
    (18, 12, '2024-02-09', 'new', NULL);
INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents) VALUES
    (11, 1, 4, 1250),
    (12, 12, 2, 3995),
    (13, 3, 1, 3995),
    (13, 8, 1, 3995),
    (14, 12, 1, 3995),
    (14, 13, 3, 3995),
    (15, 13, 1, 3995),
    (15, 3, 4, 3995),
    (16, 3, 2, 3995),
    (16, 14, 3, 1250),
    (17, 8, 3, 3995),
    (17, 2, 2, 2499),
    (18, 5, 2, 499),
    (18, 1, 4, 1250),
    (18, 12, 1, 3995);

-- 2024-03
INSERT INTO orders (id, customer_id, placed_at, status, coupon) VALUES
    (19, 12, '2024-03-11', 'shipped', NULL),
    (20, 4, '2024-03-08', 'cancelled', NULL),
    (21, 13, '2024-03-19', 'paid', 'WELCOME5'),
    (22, 14, '2024-03-09', 'cancelled', 'WELCOME5'),
    (23, 8, '2024-03-07', 'new', NULL),
    (24, 9, '2024-03-01', 'shipped', NULL),
    (25, 10, '2024-03-16', 'cancelled', NULL),
    (26, 6, '2024-03-15', 'paid', NULL),
    (27, 14, '2024-03-05', 'shipped', NULL),
    (28, 10, '2024-03-27', 'cancelled', NULL);
INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents) VALUES
    (19, 2, 2, 2499),
    (20, 10, 1, 3995),
    (21, 1, 4, 1250),
    (21, 7, 2, 8999),
    (22, 1, 4, 1250),
    (22, 10, 1, 3995),
    (22, 8, 1, 3995),
    (23, 5, 2, 499),
    (23, 14, 4, 1250),
    (24, 5, 4, 499),
    (25, 13, 3, 3995),
    (25, 8, 1, 3995),
    (25, 1, 3, 1250),
    (26, 1, 4, 1250),
    (26, 6, 3, 499),
    (27, 11, 1, 8999),
    (28, 8, 1, 3995),
    (28, 1, 3, 1250);

UPDATE orders
SET amount_cents = (
    SELECT SUM(oi.quantity * oi.unit_price_cents)
    FROM order_items AS oi
    WHERE oi.order_id = orders.id
);

UPDATE orders
SET tax_cents = amount_cents * 21 / 100
WHERE customer_id IN (SELECT id FROM customers WHERE country = 'NL');

UPDATE orders
SET amount_cents = amount_cents - amount_cents / 10
WHERE coupon = 'SPRING10';

INSERT INTO refunds (id, order_id, refunded_at, amount_cents, reason) VALUES
    (1, 3, '2024-01-19', 1250, 'Damaged in transit'),
    (2, 11, '2024-02-14', 499, 'Customer said: "wrong colour"'),
    (3, 20, '2024-03-02', 5900, NULL);

-- per-customer lifetime value, net of refunds
CREATE VIEW customer_value AS
SELECT
    c.id AS customer_id,
    c.full_name,
    c.country,
    COUNT(o.id) AS order_count,
    COALESCE(SUM(o.amount_cents), 0) AS gross_cents,
    COALESCE(SUM(o.amount_cents), 0) - COALESCE((
        SELECT SUM(r.amount_cents)
        FROM refunds AS r
        JOIN orders AS o2 ON o2.id = r.order_id
        WHERE o2.customer_id = c.id
    ), 0) AS net_cents
FROM customers AS c
LEFT JOIN orders AS o ON o.customer_id = c.id AND o.status <> 'cancelled'
GROUP BY c.id, c.full_name, c.country;

-- revenue per category and month
CREATE VIEW category_month AS
SELECT
    p.category,
    SUBSTR(o.placed_at, 1, 7) AS month,
    SUM(oi.quantity) AS units,
    SUM(oi.quantity * oi.unit_price_cents) AS revenue_cents
FROM order_items AS oi
JOIN orders AS o ON o.id = oi.order_id
JOIN products AS p ON p.id = oi.product_id
WHERE o.status IN ('paid', 'shipped')
GROUP BY p.category, SUBSTR(o.placed_at, 1, 7);

-- average basket per month (still written against the old column name)
CREATE VIEW monthly_basket AS
SELECT
    SUBSTR(placed_at, 1, 7) AS month,
    COUNT(*) AS orders,
    AVG(total_cents) AS avg_basket_cents,
    MAX(total_cents) AS max_basket_cents
FROM orders
WHERE status IN ('paid', 'shipped')
GROUP BY SUBSTR(placed_at, 1, 7);

-- report 1: top customers
SELECT customer_id, full_name, country, order_count, net_cents
FROM customer_value
WHERE order_count > 0
ORDER BY net_cents DESC, customer_id
LIMIT 5;

-- report 2: category mix
SELECT category, month, units, revenue_cents,
    CASE
        WHEN revenue_cents >= 20000 THEN 'high'
        WHEN revenue_cents >= 5000 THEN 'medium'
        ELSE 'low'
    END AS band
FROM category_month
ORDER BY month, revenue_cents DESC;

-- report 3: products never sold
SELECT p.sku, p.title
FROM products AS p
WHERE p.active = TRUE
  AND NOT EXISTS (SELECT 1 FROM order_items AS oi WHERE oi.product_id = p.id)
ORDER BY p.sku;

-- report 4: basket size trend
SELECT month, orders, avg_basket_cents, max_basket_cents
FROM monthly_basket
ORDER BY month;

-- report 5: coupon usage by country
SELECT c.country, o.coupon, COUNT(*) AS uses, SUM(o.amount_cents) AS net_cents
FROM orders AS o
JOIN customers AS c ON c.id = o.customer_id
WHERE o.coupon IS NOT NULL
GROUP BY c.country, o.coupon
HAVING COUNT(*) >= 1
ORDER BY c.country, uses DESC;
