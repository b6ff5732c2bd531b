-- A small tilemaker profile writing the layers and kinds of the Protomaps basemap schema,
-- version 4 (https://docs.protomaps.com/basemaps/layers: the organisation of layers and tags,
-- CC0), for Mapwright's tests: it makes Protomaps-schema tiles of an OpenStreetMap extract so
-- that the shipped styles' Protomaps layers can be drawn and compared with the OpenMapTiles
-- ones over the same data. It covers what those styles read (earth, water, landuse, roads,
-- buildings, places, pois, boundaries; kind, kind_detail, is_bridge, is_tunnel, name,
-- addr_housenumber, min_zoom), not all of Protomaps' own Planetiler profile.
-- Written for Mapwright; run by Tests/MapAssemblyTests' Protomaps tests with Debian's tilemaker.

node_keys = { "place", "amenity", "tourism", "leisure", "shop", "historic", "addr:housenumber" }

function init_function() end
function exit_function() end

local function Set(list)
  local set = {}
  for _, item in ipairs(list) do set[item] = true end
  return set
end

local function names(object)
  local name = object:Find("name")
  if name ~= "" then object:Attribute("name", name) end
end

local placeKinds = {
  city = { "locality", 8 }, town = { "locality", 10 }, village = { "locality", 12 },
  hamlet = { "locality", 13 }, suburb = { "neighbourhood", 11 }, quarter = { "neighbourhood", 13 },
  neighbourhood = { "neighbourhood", 13 }, isolated_dwelling = { "locality", 14 },
}
local poiKeys = { "amenity", "tourism", "leisure", "shop", "historic" }

function node_function(node)
  local place = node:Find("place")
  if placeKinds[place] then
    node:Layer("places", false)
    node:Attribute("kind", placeKinds[place][1])
    node:Attribute("kind_detail", place)
    node:AttributeNumeric("min_zoom", placeKinds[place][2])
    names(node)
    return
  end
  for _, key in ipairs(poiKeys) do
    local value = node:Find(key)
    if value ~= "" and node:Find("name") ~= "" then
      node:Layer("pois", false)
      node:Attribute("kind", value)
      -- Shops and eateries from zoom 17, sights from 16, as Protomaps suggests them roughly.
      node:AttributeNumeric("min_zoom", (key == "shop" or key == "amenity") and 17 or 16)
      names(node)
      return
    end
  end
  local number = node:Find("addr:housenumber")
  if number ~= "" then
    node:Layer("buildings", false)
    node:Attribute("kind", "address")
    node:Attribute("addr_housenumber", number)
  end
end

local roadKinds = {
  motorway = "highway", motorway_link = "highway",
  trunk = "major_road", trunk_link = "major_road", primary = "major_road", primary_link = "major_road",
  secondary = "major_road", secondary_link = "major_road", tertiary = "major_road", tertiary_link = "major_road",
  residential = "minor_road", unclassified = "minor_road", road = "minor_road", living_street = "minor_road",
  service = "minor_road",
  pedestrian = "path", track = "path", corridor = "path", path = "path", cycleway = "path",
  bridleway = "path", footway = "path", steps = "path",
}
local railKinds = Set { "rail", "light_rail", "subway", "tram", "narrow_gauge", "funicular", "monorail" }
local landuseKinds = Set {
  "park", "garden", "forest", "wood", "grass", "meadow", "cemetery", "hospital", "school", "university",
  "college", "kindergarten", "pitch", "stadium", "playground", "zoo", "military", "industrial",
  "commercial", "retail", "residential", "railway", "aerodrome", "pedestrian", "beach", "farmland",
  "allotments", "village_green", "recreation_ground", "nature_reserve", "golf_course", "scrub",
  "heath", "wetland", "sand", "bare_rock", "garages", "theme_park",
}
local waterKinds = Set { "water", "lake", "pond", "reservoir", "basin", "river", "riverbank", "dock", "canal" }
local waterwayKinds = Set { "river", "stream", "canal", "ditch", "drain" }

function way_function(way)
  local highway, railway, waterway = way:Find("highway"), way:Find("railway"), way:Find("waterway")
  local building, natural, landuse = way:Find("building"), way:Find("natural"), way:Find("landuse")
  local leisure, amenity, boundary = way:Find("leisure"), way:Find("amenity"), way:Find("boundary")
  local isClosed = way:IsClosed()

  if roadKinds[highway] and not (isClosed and way:Find("area") == "yes") then
    way:Layer("roads", false)
    way:Attribute("kind", roadKinds[highway])
    local detail = highway
    if highway == "service" then detail = "service" end
    way:Attribute("kind_detail", detail)
    if way:Find("bridge") ~= "" and way:Find("bridge") ~= "no" then way:AttributeBoolean("is_bridge", true) end
    if way:Find("tunnel") ~= "" and way:Find("tunnel") ~= "no" then way:AttributeBoolean("is_tunnel", true) end
    if highway:find("_link") then way:AttributeBoolean("is_link", true) end
    local ref = way:Find("ref")
    if ref ~= "" then way:Attribute("ref", ref) end
    names(way)
    way:AttributeNumeric("min_zoom", roadKinds[highway] == "minor_road" and 13 or roadKinds[highway] == "path" and 14 or 7)
    return
  end
  if railKinds[railway] then
    way:Layer("roads", false)
    way:Attribute("kind", "rail")
    way:Attribute("kind_detail", railway)
    if way:Find("bridge") ~= "" and way:Find("bridge") ~= "no" then way:AttributeBoolean("is_bridge", true) end
    if way:Find("tunnel") ~= "" and way:Find("tunnel") ~= "no" then way:AttributeBoolean("is_tunnel", true) end
    return
  end
  if waterwayKinds[waterway] and not isClosed then
    way:Layer("water", false)
    way:Attribute("kind", waterway)
    if way:Find("tunnel") ~= "" and way:Find("tunnel") ~= "no" then way:AttributeBoolean("is_tunnel", true) end
    names(way)
    return
  end
  if not isClosed and way:Find("type") ~= "multipolygon" and boundary == "" then return end

  if natural == "water" or waterKinds[landuse] or waterway == "riverbank" or waterway == "dock" then
    way:Layer("water", true)
    way:Attribute("kind", natural == "water" and (way:Find("water") ~= "" and way:Find("water") or "water") or "water")
    names(way)
    if way:Find("name") ~= "" then
      way:LayerAsCentroid("water")
      way:Attribute("kind", "lake")
      names(way)
    end
    return
  end
  if building ~= "" then
    way:Layer("buildings", true)
    way:Attribute("kind", "building")
    local height = tonumber(way:Find("height"))
    if height then way:AttributeNumeric("height", height) end
    local number = way:Find("addr:housenumber")
    if number ~= "" then
      way:LayerAsCentroid("buildings")
      way:Attribute("kind", "address")
      way:Attribute("addr_housenumber", number)
    end
    return
  end
  local kind = ""
  for _, value in ipairs({ leisure, landuse, natural, amenity, way:Find("tourism"), way:Find("aeroway"), highway }) do
    if landuseKinds[value] then kind = value; break end
  end
  if kind ~= "" then
    way:Layer("landuse", true)
    way:Attribute("kind", kind)
    names(way)
    return
  end
  if boundary == "administrative" then
    local level = tonumber(way:Find("admin_level"))
    if level and level <= 8 then
      way:Layer("boundaries", false)
      way:Attribute("kind", level <= 2 and "country" or level <= 4 and "region" or level <= 6 and "county" or "locality")
      way:AttributeNumeric("kind_detail", level)
    end
  end
end
