/// The web viewer served at `/`: one page of HTML, CSS and plain JavaScript (ES2017, no build
/// step) over Leaflet, which the server serves from Debian's libjs-leaflet under `/leaflet/`; it
/// fetches nothing from elsewhere.
///
/// - Layers: a base layer per style and per raster tileset, the photo overlay tiles (off by
///   default: the photos come as markers) and the photos' density map ("Photo density", off by
///   default), in a layer switcher, with each TileJSON's attribution.
/// - Photos from `/annotations.json` for the view, reloaded when it moves: clusters as bubbles
///   (class `mw-cluster`) that zoom to their expansion zoom when clicked, photos as markers (class
///   `mw-photo`) whose popup shows the title, subtitle, thumbnail and a link to the image.
/// - Tracks and shapes from `/overlays/tracks.json`, drawn as lines.
/// - "For GL clients" (class `mw-links`): a link to each style's `style.json` and each data
///   TileJSON (`/data/NAME.json`), from `/index.json`.
/// - The view starts on the photos' bounds (the overlay TileJSON's), else the first layer's.
///
/// Text from the server reaches the page through `textContent`, never as HTML.
enum ViewerPage {
    static let html = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Mapwright</title>
        <link rel="stylesheet" href="/leaflet/leaflet.css">
        <style>
        html, body, #map { height: 100%; margin: 0; }
        body { font: 14px/1.4 system-ui, "DejaVu Sans", sans-serif; }
        .mw-cluster { display: flex; align-items: center; justify-content: center; border-radius: 50%;
          background: rgba(0, 122, 255, 0.85); color: #fff; font-weight: bold; border: 3px solid rgba(255, 255, 255, 0.8);
          box-shadow: 0 1px 4px rgba(0, 0, 0, 0.4); box-sizing: border-box; }
        .mw-callout { display: flex; gap: 10px; align-items: center; min-width: 180px; }
        .mw-callout img { width: 46px; height: 46px; border-radius: 4px; object-fit: cover; flex: none; }
        .mw-callout .mw-title { font-weight: bold; }
        .mw-callout .mw-subtitle { color: #555; }
        .mw-links { padding: 4px 8px; background: rgba(255, 255, 255, 0.9); border-radius: 4px; max-width: 320px; }
        .mw-links summary { cursor: pointer; }
        .mw-links a { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .mw-message { position: absolute; z-index: 1000; left: 50px; top: 10px; padding: 4px 8px;
          background: rgba(255, 255, 255, 0.9); border-radius: 4px; }
        </style>
        </head>
        <body>
        <div id="map"></div>
        <script src="/leaflet/leaflet.js"></script>
        <script>
        "use strict";
        (async function () {
          const map = L.map("map", { worldCopyJump: true });
          window.mapwright = { map: map, markers: [], ready: false };
          function say(text) {
            const box = document.createElement("div");
            box.className = "mw-message";
            box.textContent = text;
            document.body.appendChild(box);
          }
          async function json(url) {
            const response = await fetch(url);
            if (!response.ok) { return null; }
            return response.json();
          }
          const index = await json("/index.json");
          if (!index) { say("The server answers no layers."); return; }
          const bases = {}, overlays = {}, links = [];
          let firstBase = null, startBounds = null;
          for (const tile of index) {
            // The path of the TileJSON's URL, its name left percent-encoded as the server wrote
            // it; only the last three parts, {z}/{x}/{y}.EXT, are decoded into Leaflet's template.
            const parts = new URL(tile.tiles[0]).pathname.split("/");
            const template = parts.map((part, index) => index < parts.length - 3 ? part : decodeURIComponent(part)).join("/");
            const kind = template.split("/")[1];
            // What GL clients read: each style's style.json, each data TileJSON (the tilesets'
            // files again, and the styles' vector tiles: links, not layers).
            const named = parts.slice(0, 3).join("/");
            if (kind === "data") { links.push(["Data: " + tile.name, named + ".json"]); continue; }
            if (kind === "styles") { links.push(["Style: " + tile.name, named + "/style.json"]); }
            if (!["png", "jpg", "jpeg", "webp"].includes(tile.format)) { continue; }
            const options = { attribution: tile.attribution || "", minZoom: 0, maxZoom: 20, maxNativeZoom: tile.maxzoom };
            const layer = L.tileLayer(template, options);
            // A tile the server could not draw yet under load (503 with Retry-After) is asked
            // for again, up to three times, 2, 4 and 6 s later.
            layer.on("tileerror", (event) => {
              const tries = (event.tile.dataset.tries | 0) + 1;
              if (tries > 3) { return; }
              event.tile.dataset.tries = tries;
              setTimeout(() => { event.tile.src = layer.getTileUrl(event.coords) + "?try=" + tries; }, 2000 * tries);
            });
            if (kind === "overlays" && tile.name === "heatmap") {
              overlays["Photo density"] = layer;
            } else if (kind === "overlays") {
              overlays["Photos (tiles)"] = layer;
              if (tile.bounds) { startBounds = tile.bounds; }
            } else {
              const title = kind === "tilesets" ? "Tileset: " + tile.name : tile.name;
              bases[title] = layer;
              if (!firstBase) { firstBase = layer; if (!startBounds && kind === "tilesets" && tile.bounds) { startBounds = tile.bounds; } }
            }
          }
          if (firstBase) { firstBase.addTo(map); }
          const photos = L.layerGroup().addTo(map);
          overlays["Photos"] = photos;
          const tracks = await json("/overlays/tracks.json");
          if (tracks && tracks.features.length > 0) {
            const layer = L.geoJSON(tracks, { style: { color: "#007aff", weight: 4, opacity: 0.9 } }).addTo(map);
            overlays["Tracks"] = layer;
          }
          L.control.layers(bases, overlays).addTo(map);
          if (links.length > 0) {
            const control = L.control({ position: "bottomleft" });
            control.onAdd = function () {
              const box = L.DomUtil.create("details", "mw-links");
              const summary = document.createElement("summary");
              summary.textContent = "For GL clients";
              box.appendChild(summary);
              for (const [title, href] of links) {
                const link = document.createElement("a");
                link.href = href;
                link.textContent = title;
                link.target = "_blank";
                box.appendChild(link);
              }
              L.DomEvent.disableClickPropagation(box);
              return box;
            };
            control.addTo(map);
          }
          if (startBounds && startBounds[2] - startBounds[0] < 359) {
            map.fitBounds([[startBounds[1], startBounds[0]], [startBounds[3], startBounds[2]]], { padding: [40, 40], maxZoom: 14 });
          } else {
            map.setView([20, 0], 2);
          }

          function popup(properties) {
            const box = document.createElement("div");
            box.className = "mw-callout";
            const id = encodeURIComponent(properties.id);
            const image = document.createElement("img");
            image.src = "/photos/" + id + "/thumbnail.jpg";
            image.alt = "";
            box.appendChild(image);
            const text = document.createElement("div");
            const title = document.createElement("div");
            title.className = "mw-title";
            title.textContent = properties.title;
            text.appendChild(title);
            if (properties.subtitle) {
              const subtitle = document.createElement("div");
              subtitle.className = "mw-subtitle";
              subtitle.textContent = properties.subtitle;
              text.appendChild(subtitle);
            }
            const link = document.createElement("a");
            link.href = "/photos/" + id + "/image";
            link.target = "_blank";
            link.textContent = "Open the photo";
            text.appendChild(link);
            box.appendChild(text);
            return box;
          }

          function wrap(longitude) { return ((longitude + 180) % 360 + 360) % 360 - 180; }
          let pending = null;
          let shown = new Map();
          async function reload() {
            const bounds = map.getBounds();
            let west = bounds.getWest(), east = bounds.getEast();
            if (east - west >= 360) { west = -180; east = 180; } else { west = wrap(west); east = wrap(east); }
            const south = Math.max(-85.05, bounds.getSouth()), north = Math.min(85.05, bounds.getNorth());
            const zoom = Math.floor(map.getZoom());
            if (pending) { pending.abort(); }
            pending = new AbortController();
            let answer;
            try {
              const response = await fetch("/annotations.json?bbox=" + [west, south, east, north].map(function (v) { return v.toFixed(6); }).join(",") +
                "&zoom=" + zoom, { signal: pending.signal });
              if (!response.ok) { photos.clearLayers(); shown = new Map(); window.mapwright.ready = true; return; }
              answer = await response.json();
            } catch (error) { return; }
            // Markers still shown stay (an open popup stays open); the others go.
            const next = new Map();
            window.mapwright.markers = [];
            for (const feature of answer.features) {
              const [longitude, latitude] = feature.geometry.coordinates;
              const properties = feature.properties;
              const key = properties.cluster ? "c" + properties.cluster_id + "@" + zoom : "p" + properties.id;
              window.mapwright.markers.push(properties);
              if (shown.has(key)) { next.set(key, shown.get(key)); shown.delete(key); continue; }
              let marker;
              if (properties.cluster) {
                const side = properties.point_count < 10 ? 30 : properties.point_count < 100 ? 36 : 44;
                const icon = L.divIcon({ className: "", iconSize: [side, side],
                  html: "<div class=\"mw-cluster\" style=\"width:" + side + "px;height:" + side + "px\"></div>" });
                marker = L.marker([latitude, longitude], { icon: icon, title: properties.point_count + " photos" });
                marker.on("add", function () {
                  const bubble = marker.getElement().querySelector(".mw-cluster");
                  bubble.textContent = String(properties.point_count_abbreviated);
                  bubble.dataset.clusterId = String(properties.cluster_id);
                  bubble.dataset.expansionZoom = String(properties.expansion_zoom);
                });
                marker.on("click", function () { map.setView([latitude, longitude], properties.expansion_zoom); });
              } else {
                marker = L.marker([latitude, longitude], { icon: new L.Icon.Default({ className: "mw-photo" }), title: properties.title });
                marker.bindPopup(function () { return popup(properties); });
              }
              marker.addTo(photos);
              next.set(key, marker);
            }
            for (const marker of shown.values()) { photos.removeLayer(marker); }
            shown = next;
            window.mapwright.ready = true;
          }
          map.on("moveend", reload);
          reload();
        })();
        </script>
        </body>
        </html>
        """#
}
