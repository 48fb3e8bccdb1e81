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
}
