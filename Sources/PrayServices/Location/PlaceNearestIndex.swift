import Foundation
import PrayCore

/// The gazetteer's cities by position only (`PlaceNearest+Data.swift`, written by
/// `Scripts/data/generate_nearest.py`): what a nearest-city look-up needs — a header's "near Makkah,
/// SA", a country from coordinates — decoded in about a millisecond, where parsing the whole
/// gazetteer takes about twenty. Only the lines of the cities found are read from the gazetteer
/// text.
struct PlaceNearestIndex: Sendable {
    /// The cities' positions, in the gazetteer's order.
    let coordinates: [Coordinates]
    /// The byte offset of each city's line in the gazetteer text.
    let offsets: [Int]
    /// The cities of each 1° cell: `gridCities[gridStarts[c]..<gridStarts[c + 1]]`.
    let gridCities: [Int32]
    let gridStarts: [Int32]
    /// The countries, regions and zones of the gazetteer (its small sections).
    let areas: PlaceGazetteerData

    /// Decodes the index, checked against the gazetteer text.
    /// - Throws: `PrayError` when the index does not belong to the text (regenerate it).
    init(encoded: String = Self.encoded, text: String = PlaceGazetteerData.text) throws(PrayError) {
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters), data.count >= 8 else {
            throw PlaceGazetteerData.corrupt("nearest-city index")
        }
        let words = data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map {
                UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))
            }
        }
        let count = Int(words[1])
        guard Int(words[0]) == text.utf8.count, words.count == 2 + 3 * count else {
            throw PlaceGazetteerData.corrupt("nearest-city index of another gazetteer")
        }
        var coordinates: [Coordinates] = []
        var offsets: [Int] = []
        coordinates.reserveCapacity(count)
        offsets.reserveCapacity(count)
        for city in 0..<count {
            let base = 2 + 3 * city
            let latitude = Double(Int32(bitPattern: words[base])) / 10_000
            let longitude = Double(Int32(bitPattern: words[base + 1])) / 10_000
            guard let position = try? Coordinates(latitude: latitude, longitude: longitude) else {
                throw PlaceGazetteerData.corrupt("nearest-city index position")
            }
            coordinates.append(position)
            offsets.append(Int(words[base + 2]))
        }
        self.coordinates = coordinates
        self.offsets = offsets
        (gridCities, gridStarts) = PlaceGazetteerData.grid(coordinates)
        areas = try PlaceGazetteerData(text: text, searchable: false, areasOnly: true)
    }

    /// The city at `index`, read from its line of the gazetteer text.
    /// - Throws: `PrayError` when the line is not a city line.
    func city(_ index: Int, text: String = PlaceGazetteerData.text) throws(PrayError) -> PlaceGazetteerData.City {
        var text = text
        let offset = offsets[index]
        let result: Result<PlaceGazetteerData.City, PrayError> = text.withUTF8 { bytes in
            var end = offset
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            do throws(PrayError) {
                return .success(try areas.city(line: UnsafeBufferPointer(rebasing: bytes[offset..<end])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
