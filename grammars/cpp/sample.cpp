#include <vector>
#include <string>
# 2 "shapes.cpp" 2
#define SQUARE(x) ((x) * (x))

namespace geo {

template <typename T, int N = 3>
struct Vec {
    T data[N];
    T &operator[](int i) { return data[i]; }
    const T &operator[](int i) const { return data[i]; }
};

class Shape {
public:
    explicit Shape(std::string name) : name_(std::move(name)) {}
    virtual ~Shape() = default;
    virtual double area() const = 0;
    const std::string &name() const noexcept { return name_; }

private:
    std::string name_;
    static inline int count_ = 0;
};

class Circle final : public Shape {
public:
    Circle(double r) : Shape("circle"), r_{r} {}
    double area() const override { return 3.14159 * SQUARE(r_); }

private:
    double r_;
};

enum class Color : unsigned char { Red, Green = 2, Blue };

using Shapes = std::vector<Shape *>;

template <typename F>
auto sum_areas(const Shapes &shapes, F &&weight) -> double {
    double total = 0.0;
    for (const auto *s : shapes) {
        if (s == nullptr) continue;
        total += weight(*s) * s->area();
    }
    return total;
}

}  // namespace geo

int main(int argc, char **argv) {
    geo::Shapes shapes;
    shapes.push_back(new geo::Circle(2.0));
    auto w = [&](const geo::Shape &s) { return s.name().size() > 3 ? 1.0 : 0.5; };
    double a = geo::sum_areas(shapes, w);
    static_assert(sizeof(int) >= 4, "int too small");
    try {
        if (a < 0) throw std::runtime_error("negative");
    } catch (const std::exception &e) {
        return 1;
    }
    const char *raw = R"(raw "text")";
    for (int i = 0; i < argc; ++i) {
        switch (argv[i][0]) {
        case '-': break;
        default: a += i;
        }
    }
    delete shapes[0];
    return static_cast<int>(a) % 2;
}
