-- Registrar: spring term 2024 enrolment load and section consolidation.
-- Run order: schema, reference data, enrolments, consolidation, reports.

CREATE TABLE departments (
    id INTEGER PRIMARY KEY,
    code VARCHAR(8) NOT NULL UNIQUE,
    name VARCHAR(100) NOT NULL
);

CREATE TABLE courses (
    id INTEGER PRIMARY KEY,
    department_id INTEGER NOT NULL REFERENCES departments (id),
    number VARCHAR(8) NOT NULL,
    title VARCHAR(150) NOT NULL,
    credits INTEGER NOT NULL DEFAULT 5,
    UNIQUE (department_id, number)
);

CREATE TABLE sections (
    id INTEGER PRIMARY KEY,
    course_id INTEGER NOT NULL REFERENCES courses (id),
    label VARCHAR(4) NOT NULL,
    room VARCHAR(20),
    capacity INTEGER NOT NULL CHECK (capacity > 0),
    cancelled BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE students (
    id INTEGER PRIMARY KEY,
    student_no VARCHAR(10) NOT NULL UNIQUE,
    full_name VARCHAR(120) NOT NULL,
    programme VARCHAR(40) NOT NULL,
    year_of_study INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE enrollments (
    id INTEGER PRIMARY KEY,
    student_id INTEGER NOT NULL REFERENCES students (id),
    section_id INTEGER NOT NULL REFERENCES sections (id),
    enrolled_on DATE NOT NULL,
    status VARCHAR(12) NOT NULL DEFAULT 'active',
    UNIQUE (student_id, section_id)
);

CREATE INDEX idx_enrollments_section ON enrollments (section_id, status);
CREATE INDEX idx_sections_course ON sections (course_id);

INSERT INTO departments (id, code, name) VALUES
    (1, 'CS', 'Computer Science'),
    (2, 'MATH', 'Mathematics'),
    (3, 'PHYS', 'Physics'),
    (4, 'LING', 'Linguistics');

INSERT INTO courses (id, department_id, number, title, credits) VALUES
    (1, 1, '101', 'Introduction to Programming', 6),
    (2, 1, '210', 'Data Structures', 6),
    (3, 1, '315', 'Databases', 5),
    (4, 2, '120', 'Linear Algebra I', 5),
    (5, 2, '131', 'Calculus', 5),
    (6, 3, '101', 'Mechanics', 5),
    (7, 4, '205', 'Syntax & Semantics', 5);

INSERT INTO sections (id, course_id, label, room, capacity, cancelled) VALUES
    (1, 1, 'A', 'BBG 0.12', 60, FALSE),
    (2, 1, 'B', 'KBG Atlas', 30, FALSE),
    (3, 2, 'A', 'KBG Atlas', 30, FALSE),
    (4, 3, 'A', 'KBG Atlas', 60, FALSE),
    (5, 3, 'B', 'KBG Atlas', 30, FALSE),
    (6, 4, 'A', NULL, 40, FALSE),
    (7, 4, 'B', NULL, 120, FALSE),
    (8, 5, 'A', 'MIN 2.01', 40, FALSE),
    (9, 5, 'B', NULL, 40, FALSE),
    (10, 6, 'A', 'KBG Atlas', 40, FALSE),
    (11, 7, 'A', 'MIN 2.01', 120, FALSE);

INSERT INTO students (id, student_no, full_name, programme, year_of_study) VALUES
    (1, 's2300037', 'Ahmed de Jong', 'BA Linguistics', 3),
    (2, 's2300074', 'Bram Jansen', 'BSc Physics', 1),
    (3, 's2300111', 'Carlijn van Dijk', 'BSc Physics', 2),
    (4, 's2300148', 'Dewi Bakker', 'BSc CS', 2),
    (5, 's2300185', 'Eva Visser', 'BSc CS', 3),
    (6, 's2300222', 'Femke Smit', 'BSc Math', 3),
    (7, 's2300259', 'Gijs Meijer', 'BSc CS', 2),
    (8, 's2300296', 'Hana el Amrani', 'BSc Physics', 1),
    (9, 's2300333', 'Ivo Mulder', 'BA Linguistics', 3),
    (10, 's2300370', 'Jasmijn de Groot', 'BSc Physics', 1),
    (11, 's2300407', 'Kees Bos', 'BSc Math', 2),
    (12, 's2300444', 'Lotte Vos', 'BSc Physics', 2),
    (13, 's2300481', 'Mehmet Peters', 'BSc Physics', 1),
    (14, 's2300518', 'Nina Hendriks', 'BSc Physics', 2),
    (15, 's2300555', 'Oscar van Leeuwen', 'BSc CS', 2),
    (16, 's2300592', 'Priya Dekker', 'BA Linguistics', 3),
    (17, 's2300629', 'Quinten Brouwer', 'BA Linguistics', 1),
    (18, 's2300666', 'Roos de Wit', 'BSc Math', 2),
    (19, 's2300703', 'Sven Dijkstra', 'BSc CS', 1),
    (20, 's2300740', 'Tess Smits', 'BSc CS', 1),
    (21, 's2300777', 'Umar de Graaf', 'BSc Physics', 2),
    (22, 's2300814', 'Vera van der Meer', 'BA Linguistics', 1),
    (23, 's2300851', 'Wout Kok', 'BSc Physics', 3),
    (24, 's2300888', 'Xin Jacobs', 'BSc Math', 2),
    (25, 's2300925', 'Yara ''t Hart', 'BSc CS', 2),
    (26, 's2300962', 'Zeynep Vermeulen', 'BA Linguistics', 3),
    (27, 's2300999', 'Joris van den Berg', 'BA Linguistics', 1),
    (28, 's2301036', 'Maud Koster', 'BSc Math', 2),
    (29, 's2301073', 'Teun Willems', 'BSc Math', 1),
    (30, 's2301110', 'Isa Yılmaz', 'BSc Math', 1);

-- enrolments exported from the portal on 2024-01-29
INSERT INTO enrollments (id, student_id, section_id, enrolled_on, status) VALUES
    (1, 1, 1, '2024-01-25', 'active'),
    (2, 1, 5, '2024-01-14', 'active'),
    (3, 2, 4, '2024-01-13', 'waitlist'),
    (4, 2, 6, '2024-01-15', 'active'),
    (5, 2, 11, '2024-01-08', 'active'),
    (6, 3, 1, '2024-01-21', 'waitlist'),
    (7, 3, 3, '2024-01-17', 'waitlist'),
    (8, 4, 2, '2024-01-14', 'waitlist'),
    (9, 4, 3, '2024-01-15', 'waitlist'),
    (10, 4, 9, '2024-01-20', 'waitlist'),
    (11, 4, 11, '2024-01-18', 'active'),
    (12, 5, 4, '2024-01-17', 'waitlist'),
    (13, 5, 6, '2024-01-21', 'waitlist'),
    (14, 5, 8, '2024-01-18', 'active'),
    (15, 5, 10, '2024-01-23', 'active'),
    (16, 6, 4, '2024-01-19', 'active'),
    (17, 6, 7, '2024-01-20', 'active'),
    (18, 6, 8, '2024-01-25', 'active'),
    (19, 7, 4, '2024-01-19', 'active'),
    (20, 7, 9, '2024-01-09', 'waitlist'),
    (21, 7, 10, '2024-01-10', 'active'),
    (22, 8, 4, '2024-01-26', 'active'),
    (23, 8, 7, '2024-01-11', 'active'),
    (24, 8, 9, '2024-01-26', 'waitlist'),
    (25, 8, 10, '2024-01-26', 'active');
INSERT INTO enrollments (id, student_id, section_id, enrolled_on, status) VALUES
    (26, 9, 5, '2024-01-18', 'active'),
    (27, 9, 9, '2024-01-15', 'waitlist'),
    (28, 10, 4, '2024-01-14', 'active'),
    (29, 10, 10, '2024-01-15', 'active'),
    (30, 11, 2, '2024-01-12', 'waitlist'),
    (31, 11, 4, '2024-01-09', 'active'),
    (32, 11, 7, '2024-01-16', 'active'),
    (33, 11, 11, '2024-01-14', 'active'),
    (34, 12, 3, '2024-01-08', 'active'),
    (35, 12, 7, '2024-01-25', 'waitlist'),
    (36, 12, 9, '2024-01-26', 'waitlist'),
    (37, 13, 1, '2024-01-22', 'active'),
    (38, 13, 7, '2024-01-09', 'waitlist'),
    (39, 13, 8, '2024-01-14', 'active'),
    (40, 13, 11, '2024-01-18', 'active'),
    (41, 14, 5, '2024-01-16', 'waitlist'),
    (42, 14, 7, '2024-01-21', 'active'),
    (43, 15, 6, '2024-01-17', 'active'),
    (44, 15, 9, '2024-01-24', 'active'),
    (45, 16, 2, '2024-01-24', 'active'),
    (46, 16, 5, '2024-01-22', 'active'),
    (47, 16, 10, '2024-01-14', 'active'),
    (48, 17, 1, '2024-01-18', 'active'),
    (49, 17, 5, '2024-01-23', 'waitlist'),
    (50, 17, 6, '2024-01-21', 'active');
INSERT INTO enrollments (id, student_id, section_id, enrolled_on, status) VALUES
    (51, 17, 9, '2024-01-25', 'active'),
    (52, 18, 3, '2024-01-12', 'waitlist'),
    (53, 18, 4, '2024-01-23', 'active'),
    (54, 18, 7, '2024-01-23', 'active'),
    (55, 18, 8, '2024-01-11', 'waitlist'),
    (56, 19, 3, '2024-01-12', 'active'),
    (57, 19, 6, '2024-01-26', 'active'),
    (58, 19, 10, '2024-01-18', 'active'),
    (59, 20, 1, '2024-01-24', 'waitlist'),
    (60, 20, 7, '2024-01-14', 'active'),
    (61, 20, 8, '2024-01-25', 'active'),
    (62, 21, 2, '2024-01-21', 'active'),
    (63, 21, 6, '2024-01-16', 'active'),
    (64, 21, 9, '2024-01-26', 'active'),
    (65, 22, 1, '2024-01-11', 'waitlist'),
    (66, 22, 4, '2024-01-12', 'active'),
    (67, 22, 5, '2024-01-17', 'waitlist'),
    (68, 22, 8, '2024-01-20', 'active'),
    (69, 23, 3, '2024-01-20', 'active'),
    (70, 23, 4, '2024-01-18', 'active'),
    (71, 23, 6, '2024-01-26', 'active'),
    (72, 24, 2, '2024-01-16', 'waitlist'),
    (73, 24, 5, '2024-01-23', 'active'),
    (74, 24, 8, '2024-01-16', 'active'),
    (75, 25, 1, '2024-01-10', 'active');
INSERT INTO enrollments (id, student_id, section_id, enrolled_on, status) VALUES
    (76, 25, 2, '2024-01-16', 'active'),
    (77, 25, 8, '2024-01-08', 'waitlist'),
    (78, 25, 11, '2024-01-14', 'active'),
    (79, 26, 2, '2024-01-18', 'active'),
    (80, 26, 4, '2024-01-21', 'active'),
    (81, 27, 2, '2024-01-12', 'waitlist'),
    (82, 27, 5, '2024-01-10', 'waitlist'),
    (83, 27, 10, '2024-01-08', 'active'),
    (84, 28, 4, '2024-01-09', 'waitlist'),
    (85, 28, 7, '2024-01-20', 'active'),
    (86, 29, 1, '2024-01-25', 'active'),
    (87, 29, 8, '2024-01-22', 'active'),
    (88, 30, 4, '2024-01-14', 'active'),
    (89, 30, 7, '2024-01-15', 'active'),
    (90, 30, 9, '2024-01-18', 'waitlist'),
    (91, 30, 10, '2024-01-19', 'active');

-- students who withdrew before the deadline
UPDATE enrollments
SET status = 'withdrawn'
WHERE student_id IN (4, 19, 23)
  AND enrolled_on < '2024-01-20';

-- waitlisted students move up when the section has room
UPDATE enrollments
SET status = 'active'
WHERE status = 'waitlist'
  AND section_id IN (
      SELECT s.id
      FROM sections AS s
      WHERE s.capacity > (
          SELECT COUNT(*) FROM enrollments AS e2
          WHERE e2.section_id = s.id AND e2.status = 'active'
      )
  );

-- Databases (CS 315) section B is cancelled: move everybody to section A.
-- Students already in A were supposed to be filtered out by the portal.
UPDATE sections SET cancelled = TRUE WHERE id = 6;

UPDATE enrollments
SET section_id = 5
WHERE section_id = 6;

CREATE VIEW section_load AS
SELECT
    d.code || ' ' || c.number AS course,
    s.label,
    s.capacity,
    SUM(CASE WHEN e.status = 'active' THEN 1 ELSE 0 END) AS active,
    SUM(CASE WHEN e.status = 'waitlist' THEN 1 ELSE 0 END) AS waiting
FROM sections AS s
JOIN courses AS c ON c.id = s.course_id
JOIN departments AS d ON d.id = c.department_id
LEFT JOIN enrollments AS e ON e.section_id = s.id
WHERE s.cancelled = FALSE
GROUP BY d.code, c.number, s.label, s.capacity;

-- report: sections over capacity
SELECT course, label, capacity, active
FROM section_load
WHERE active > capacity
ORDER BY course, label;

-- report: credit load per student
SELECT st.student_no, st.full_name, SUM(c.credits) AS credits
FROM students AS st
JOIN enrollments AS e ON e.student_id = st.id AND e.status = 'active'
JOIN sections AS s ON s.id = e.section_id
JOIN courses AS c ON c.id = s.course_id
GROUP BY st.student_no, st.full_name
HAVING SUM(c.credits) > 15
ORDER BY credits DESC, st.student_no;

-- report: students with no active enrolment
SELECT student_no, full_name
FROM students
WHERE id NOT IN (SELECT student_id FROM enrollments WHERE status = 'active')
ORDER BY student_no;
