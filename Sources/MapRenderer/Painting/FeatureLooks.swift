import MapJSON

/// A layer's looks for its features at one zoom, each made once for every set of values under
/// the feature properties the layer's data-driven properties read (see
/// `StyleValue.featurePropertyNames`): a road class's width and colour are matched once, not
/// for every road. Where a property reads features otherwise (their type, id, state, or every
/// property), every look is made anew.
struct FeatureLooks<Look> {
    /// The names read, sorted; nil when looks are not shared.
    private let names: [String]?
    private var made: [[FeatureValue?]: Look] = [:]

    /// Looks made from properties that read `names` (nil where one reads features otherwise).
    init(reading names: [Set<String>?]) {
        var union: Set<String> = []
        for set in names {
            guard let set else {
                self.names = nil
                return
            }
            union.formUnion(set)
        }
        self.names = union.sorted()
    }

    /// The look for a feature with `properties`: one made before for the same values under the
    /// names read, or `make()`'s.
    mutating func look(for properties: [String: FeatureValue], make: () -> Look) -> Look {
        guard let names else { return make() }
        let key = names.map { properties[$0] }
        if let known = made[key] { return known }
        let look = make()
        made[key] = look
        return look
    }
}
