package com.example.shapes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

@FunctionalInterface
interface Area {
    double of(Shape s);
}

public abstract class Shape implements Comparable<Shape> {
    private static int count = 0;
    protected final String name;

    protected Shape(String name) {
        this.name = name;
        count++;
    }

    public abstract double area();

    @Override
    public int compareTo(Shape other) {
        return Double.compare(area(), other.area());
    }

    static <T extends Shape> T largest(List<T> shapes, Function<T, Double> key) {
        T best = null;
        for (T s : shapes) {
            if (best == null || key.apply(s) > key.apply(best)) {
                best = s;
            }
        }
        return best;
    }

    enum Kind { CIRCLE, SQUARE }

    static class Circle extends Shape {
        private final double r;
        Circle(double r) { super("circle"); this.r = r; }
        public double area() { return Math.PI * r * r; }
    }

    public static void main(String[] args) throws Exception {
        List<Shape> shapes = new ArrayList<>();
        shapes.add(new Circle(2.0));
        int[] counts = {1, 2, 3};
        String label = args.length > 0 ? args[0] : "none";
        try {
            Shape s = largest(shapes, Shape::area);
            System.out.println(label + s.area() + counts[0]);
        } catch (IllegalStateException | NullPointerException e) {
            throw new RuntimeException(e);
        } finally {
            count = 0;
        }
        switch (label) {
            case "a": break;
            default: count += 1;
        }
        Runnable r = () -> System.out.println((Object) "x");
        r.run();
    }
}
