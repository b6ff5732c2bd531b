import Foundation
import MapCore
import Testing

struct CoordinateSpanTests {
    @Test func initRejectsDeltasOutOfRangeNamingThem() throws {
        let latitude = #expect(throws: MapCoreError.self) { try CoordinateSpan(latitudeDelta: 181, longitudeDelta: 0) }
        #expect(latitude?.description.contains("latitudeDelta 181.0") == true)
        let longitude = #expect(throws: MapCoreError.self) { try CoordinateSpan(latitudeDelta: 0, longitudeDelta: -1) }
        #expect(longitude?.description.contains("longitudeDelta -1.0") == true)
        #expect(throws: MapCoreError.self) { try CoordinateSpan(latitudeDelta: .nan, longitudeDelta: 0) }
    }

    @Test func codableRoundTripsAndRejectsBadDelta() throws {
        let span = try CoordinateSpan(latitudeDelta: 1.5, longitudeDelta: 360)
        #expect(try JSONDecoder().decode(CoordinateSpan.self, from: JSONEncoder().encode(span)) == span)
        let bad = Data(#"{"latitudeDelta":1,"longitudeDelta":361}"#.utf8)
        #expect(throws: MapCoreError.self) { try JSONDecoder().decode(CoordinateSpan.self, from: bad) }
    }
}
