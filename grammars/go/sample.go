package main

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
