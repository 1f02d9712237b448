import Foundation
import Geo

/// Paper sizes, portrait, in inches.
public enum PaperSize: String, CaseIterable, Sendable {
    case letter, a4, tabloid
    public var inches: (width: Double, height: Double) {
        switch self {
        case .letter: (8.5, 11)
        case .a4: (210 / 25.4, 297 / 25.4)
        case .tabloid: (11, 17)
        }
    }
}

/// The drawing surface's size.
public enum Canvas: Equatable, Sendable {
    /// Width × height in pixels; one style pixel is one pixel; vector outputs use 1 px = 1 pt.
    case pixels(width: Int, height: Int)
    /// A sheet at a resolution in dots per inch; style pixels scale by dpi/96.
    case paper(PaperSize, dpi: Double, landscape: Bool)

    /// Size in device pixels (PNG pixels; the unit the map is laid out in).
    public var pixelSize: (width: Int, height: Int) {
        switch self {
        case let .pixels(w, h): return (w, h)
        case let .paper(p, dpi, landscape):
            let (w, h) = landscape ? (p.inches.height, p.inches.width) : p.inches
            return (Int((w * dpi).rounded()), Int((h * dpi).rounded()))
        }
    }
    /// Device pixels per style pixel.
    public var styleScale: Double {
        if case let .paper(_, dpi, _) = self { return dpi / 96 }
        return 1
    }
    /// Vector-surface units (points) per device pixel.
    public var pointsPerPixel: Double {
        if case let .paper(_, dpi, _) = self { return 72 / dpi }
        return 1
    }
}

/// What part of the world the map shows.
public enum Viewport: Equatable, Sendable {
    /// The data's extent, with `padding` style pixels around it.
    case dataExtent(padding: Double)
    /// A box W,S,E,N in degrees, fitted with `padding` style pixels around it.
    case bbox(BBox, padding: Double)
    /// A centre (lon, lat in degrees) at a web zoom level (256-px tiles; fractional allowed).
    case center(Coord, zoom: Double)
}

public struct ViewError: Error, CustomStringConvertible, Sendable {
    public var problem: String
    public var description: String { problem }
}

/// Placement of Web Mercator (EPSG:3857) metres on the canvas: y grows down in pixels.
public struct MapView: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Centre of the canvas, Web Mercator metres.
    public let center: Coord
    /// Web Mercator metres per device pixel (true ground metres are this × cos(latitude)).
    public let metresPerPixel: Double
    public let styleScale: Double
    public let pointsPerPixel: Double

    /// Equatorial radius of EPSG:3857, metres.
    public static let earthRadius = 6378137.0

    public init(width: Int, height: Int, center: Coord, metresPerPixel: Double, styleScale: Double = 1, pointsPerPixel: Double = 1) {
        self.width = width; self.height = height; self.center = center
        self.metresPerPixel = metresPerPixel; self.styleScale = styleScale; self.pointsPerPixel = pointsPerPixel
    }

    /// Fits the viewport on the canvas. `dataExtent` is the data's box in degrees, used by
    /// `.dataExtent`; an empty one is an error.
    public init(viewport: Viewport, canvas: Canvas, dataExtent: BBox, projection: Projection) throws {
        let (w, h) = canvas.pixelSize
        guard w > 0, h > 0 else { throw ViewError(problem: "the canvas has no pixels (\(w)x\(h))") }
        let box: BBox, padding: Double
        switch viewport {
        case let .center(c, zoom):
            let m = try projection.forward(c)
            let mpp = 2 * Double.pi * MapView.earthRadius / (256 * pow(2, zoom)) / canvas.styleScale
            self.init(width: w, height: h, center: m, metresPerPixel: mpp,
                      styleScale: canvas.styleScale, pointsPerPixel: canvas.pointsPerPixel)
            return
        case let .bbox(b, p): (box, padding) = (b, p)
        case let .dataExtent(p):
            guard !dataExtent.isEmpty else { throw ViewError(problem: "nothing to draw: the input has no features") }
            (box, padding) = (dataExtent, p)
        }
        var corners = [Coord(box.minX, box.minY), Coord(box.maxX, box.maxY)]
        try projection.forward(&corners)
        let pad = padding * canvas.styleScale
        let spanX = max(corners[1].x - corners[0].x, 1), spanY = max(corners[1].y - corners[0].y, 1)
        let usableW = max(Double(w) - 2 * pad, 1), usableH = max(Double(h) - 2 * pad, 1)
        let mpp = max(spanX / usableW, spanY / usableH)
        self.init(width: w, height: h,
                  center: Coord((corners[0].x + corners[1].x) / 2, (corners[0].y + corners[1].y) / 2),
                  metresPerPixel: mpp, styleScale: canvas.styleScale, pointsPerPixel: canvas.pointsPerPixel)
    }

    /// Pixel position of a Web Mercator point (x right, y down, origin top-left).
    @inlinable public func pixel(_ m: Coord) -> Coord {
        Coord((m.x - center.x) / metresPerPixel + Double(width) / 2,
              Double(height) / 2 - (m.y - center.y) / metresPerPixel)
    }

    /// The canvas in Web Mercator metres.
    public var bounds: BBox {
        let hw = Double(width) / 2 * metresPerPixel, hh = Double(height) / 2 * metresPerPixel
        return BBox(minX: center.x - hw, minY: center.y - hh, maxX: center.x + hw, maxY: center.y + hh)
    }

    /// Latitude of the canvas centre in degrees (spherical inverse of EPSG:3857).
    public var centerLatitude: Double {
        (2 * atan(exp(center.y / MapView.earthRadius)) - Double.pi / 2) * 180 / Double.pi
    }

    /// Ground metres per device pixel at the centre's latitude: Web Mercator stretches
    /// lengths by 1/cos(latitude), so this is `metresPerPixel × cos(latitude)`.
    public var groundMetresPerPixel: Double {
        metresPerPixel * cos(centerLatitude * Double.pi / 180)
    }
}
