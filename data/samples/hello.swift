import Foundation

/// hello.swift — a small Swift program used as a sample source file.

struct Greeting {
    let name: String
    var excited = false

    func render() -> String {
        "Hello, \(name)" + (excited ? "!" : ".")
    }
}

enum Shape {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)

    var area: Double {
        switch self {
        case .circle(let r): return Double.pi * r * r
        case .rectangle(let w, let h): return w * h
        }
    }
}

let names = ["World", "Dossier", "Debian"]
for (index, name) in names.enumerated() {
    print(Greeting(name: name, excited: index == 0).render())
}

let shapes: [Shape] = [.circle(radius: 1), .rectangle(width: 2, height: 3)]
let total = shapes.map(\.area).reduce(0, +)
print(String(format: "Total area: %.2f", total))
