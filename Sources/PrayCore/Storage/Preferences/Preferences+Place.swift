extension Preferences {
    /// Saves a city as the place, in one step: its latitude, longitude, elevation (when known, else
    /// removed), its name as `place-name` (`Makkah, SA`) and its own zone as `tz`.
    ///
    /// ```swift
    /// let city = try places.search("Makkah").best!
    /// try store.update { try $0.setPlace(city) }
    /// ```
    /// - Throws: ``ValidationError`` when a value is not valid for its key (the place's zone is
    ///   unknown to the system, say); nothing changes then.
    public mutating func setPlace(_ place: Place) throws(ValidationError) {
        var updated = self
        try updated.set(place.coordinates.latitude.formattedCompactly, for: .latitude)
        try updated.set(place.coordinates.longitude.formattedCompactly, for: .longitude)
        if let elevation = place.elevation {
            try updated.set(elevation.formattedCompactly, for: .elevation)
        } else {
            updated.unset(.elevation)
        }
        try updated.set(place.shortName, for: .placeName)
        try updated.set(place.timeZoneIdentifier, for: .timeZone)
        self = updated
    }

    /// Sets the latitude or longitude of the saved place. When the value changes, the name and zone
    /// saved with the old place no longer describe it and are removed (a zone is then found again
    /// from the new coordinates by whoever calls this: ``LocationManager/timeZone(at:)``).
    ///
    /// ```swift
    /// let removed = try preferences.setCoordinate("2.5", for: .longitude)   // [placeName, timeZone]
    /// ```
    /// - Returns: The keys removed, with the values they had.
    /// - Throws: ``ValidationError`` for a value out of range, or a key other than latitude and
    ///   longitude; nothing changes then.
    @discardableResult
    public mutating func setCoordinate(_ text: String, for key: Key) throws(ValidationError) -> [(Key, String)] {
        guard key == .latitude || key == .longitude else {
            throw ValidationError(field: key.rawValue, message: "\(key) is not a coordinate")
        }
        let before = self[key]
        try set(text, for: key)
        guard before != nil, before != self[key] else { return [] }
        var removed: [(Key, String)] = []
        for stale in [Key.placeName, .timeZone] {
            if let value = self[stale] {
                removed.append((stale, value))
                unset(stale)
            }
        }
        return removed
    }
}
