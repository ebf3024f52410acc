//! Facts of the Go table, and its validation against the linked parser.

use super::testing::{check_min_yields_in_place, check_no_drift, separator_of, yield_of};
use crate::Lang;

const GO: Lang = Lang::Go;

#[test]
fn go_facts() {
    assert_eq!(yield_of(GO, "block"), "{}");
    assert_eq!(yield_of(GO, "_expression"), "0");
    assert_eq!(separator_of(GO, "parameter_list"), Some(","));
    assert_eq!(separator_of(GO, "argument_list"), Some(","));
    assert!(GO.table().kind("source_file").unwrap().derives_empty);
}

#[test]
fn go_no_version_drift() {
    check_no_drift(GO, 80);
}

#[test]
fn go_min_yields_parse_in_place() {
    check_min_yields_in_place(GO, SAMPLE, 65);
}

const SAMPLE: &str = r##"package main

import (
	"errors"
	"fmt"
	"strings"
)

type Shape interface {
	Area() float64
	Name() string
}

type Rect struct {
	W, H float64
	tags []string `json:"tags"`
}

func (r *Rect) Area() float64 { return r.W * r.H }
func (r Rect) Name() string   { return "rect" }

var ErrEmpty = errors.New("empty")

const (
	Small = iota
	Large
)

func Largest[T any](xs []T, key func(T) float64) (best T, err error) {
	if len(xs) == 0 {
		err = ErrEmpty
		return
	}
	best = xs[0]
	for _, x := range xs[1:] {
		if key(x) > key(best) {
			best = x
		}
	}
	return best, nil
}

func main() {
	shapes := []Shape{&Rect{W: 2, H: 3}, &Rect{1, 1, nil}}
	m := map[string]int{"a": 1}
	ch := make(chan int, 1)
	go func() { ch <- len(m) }()
	select {
	case n := <-ch:
		fmt.Println(n)
	default:
	}
	s, err := Largest(shapes, func(s Shape) float64 { return s.Area() })
	if err != nil {
		panic(err)
	}
	switch v := s.(type) {
	case *Rect:
		fmt.Printf("%s %v\n", strings.ToUpper(v.Name()), v.Area())
	}
	defer fmt.Println("done")
	var i int
	for i = 0; i < 3; i++ {
		i += Small
	}
}
"##;
