/// The web viewer served at `/`: one page of HTML, CSS and plain JavaScript (ES2017, no build
/// step) in two modes, both fetching nothing from elsewhere:
///
/// - the Leaflet mode (the default): Leaflet, which the server serves from Debian's
///   libjs-leaflet under `leaflet/`, drawing the server's raster tiles (``leafletScript``);
/// - the GL mode, `?gl` (``glScript``): MapLibre GL JS, served under `maplibre-gl/`, drawing a
///   style's `styles/NAME/style.json` (`?gl&style=NAME`, by default the first style), with pitch
///   and rotation.
///
/// Each mode links to the other (class `mw-mode`). Both show:
///
/// - Photos from `annotations.json` for the view, reloaded when it moves: the server's clusters as
///   bubbles (class `mw-cluster`) that zoom to their expansion zoom when clicked, photos as
///   markers (class `mw-photo`) whose popup shows the title, subtitle, thumbnail and a link to
///   the image.
/// - Tracks and shapes from `overlays/tracks.json`, drawn as lines.
/// - The view starts on the photos' bounds (the overlay TileJSON's), else the first layer's.
///
/// Every URL the page writes is relative (`leaflet/leaflet.js`, `annotations.json`, …), so it
/// works behind a path prefix; tile URLs come from the TileJSON of `index.json`. The state a test
/// reads is `window.mapwright`: `map`, `mode` (`leaflet` or `gl`), `ready` (the photos of the
/// view are shown), `markers` (their properties), and in the GL mode `idle` (GL JS's last `idle`
/// since the view last moved) and `errors` (the messages of GL JS's `error` events). Text from
/// the server reaches the page through `textContent`, never as HTML.
enum ViewerPage {
    static let html =
        #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Mapwright</title>
        <link rel="stylesheet" href="leaflet/leaflet.css">
        <style>
        html, body, #map { height: 100%; margin: 0; }
        body { font: 14px/1.4 system-ui, "DejaVu Sans", sans-serif; }
        .mw-cluster { display: flex; align-items: center; justify-content: center; border-radius: 50%;
          background: rgba(0, 122, 255, 0.85); color: #fff; font-weight: bold; border: 3px solid rgba(255, 255, 255, 0.8);
          box-shadow: 0 1px 4px rgba(0, 0, 0, 0.4); box-sizing: border-box; cursor: pointer; }
        .mw-callout { display: flex; gap: 10px; align-items: center; min-width: 180px; }
        .mw-callout img { width: 46px; height: 46px; border-radius: 4px; object-fit: cover; flex: none; }
        .mw-callout .mw-title { font-weight: bold; }
        .mw-callout .mw-subtitle { color: #555; }
        .mw-links { padding: 4px 8px; background: rgba(255, 255, 255, 0.9); border-radius: 4px; max-width: 320px; }
        .mw-links summary { cursor: pointer; }
        .mw-links a { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .mw-mode { padding: 4px 8px; background: rgba(255, 255, 255, 0.9); border-radius: 4px; }
        .mw-mode select { margin-left: 6px; }
        .mw-message { position: absolute; z-index: 1000; left: 50px; top: 10px; padding: 4px 8px;
          background: rgba(255, 255, 255, 0.9); border-radius: 4px; }
        </style>
        </head>
        <body>
        <div id="map"></div>
        <script src="leaflet/leaflet.js"></script>
        <script>
        "use strict";
        (async function () {
          const query = new URLSearchParams(location.search);
          const mode = query.has("gl") ? "gl" : "leaflet";
          window.mapwright = { map: null, mode: mode, markers: [], ready: false, idle: false, errors: [] };
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
          // What a TileJSON of index.json names: its kind (styles, overlays, tilesets, data), its
          // name as the URL spells it (percent-encoded), its path without {z}/{x}/{y}.EXT, and
          // Leaflet's template (only those last three parts decoded). Read from the end, so a
          // path prefix in front changes nothing.
          function described(tile) {
            const parts = new URL(tile.tiles[0]).pathname.split("/");
            const template = parts.map((part, index) => index < parts.length - 3 ? part : decodeURIComponent(part)).join("/");
            return { kind: parts[parts.length - 5], name: parts[parts.length - 4],
                     named: parts.slice(0, parts.length - 3).join("/"), template: template };
          }
          function modeLink(text, href) {
            const link = document.createElement("a");
            link.href = href;
            link.textContent = text;
            return link;
          }
          function popup(properties) {
            const box = document.createElement("div");
            box.className = "mw-callout";
            const id = encodeURIComponent(properties.id);
            const image = document.createElement("img");
            image.src = "photos/" + id + "/thumbnail.jpg";
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
            link.href = "photos/" + id + "/image";
            link.target = "_blank";
            link.textContent = "Open the photo";
            text.appendChild(link);
            box.appendChild(text);
            return box;
          }
          function wrap(longitude) { return ((longitude + 180) % 360 + 360) % 360 - 180; }
          // The annotations of a view: bbox in degrees (wrapped, clamped to Web Mercator's
          // latitudes) and the tiles' zoom (256-pixel tiles, whole zooms).
          async function annotations(west, south, east, north, zoom, signal) {
            if (east - west >= 360) { west = -180; east = 180; } else { west = wrap(west); east = wrap(east); }
            south = Math.max(-85.05, south);
            north = Math.min(85.05, north);
            const response = await fetch("annotations.json?bbox=" + [west, south, east, north].map(function (v) { return v.toFixed(6); }).join(",") +
              "&zoom=" + zoom, { signal: signal });
            return response.ok ? response.json() : { features: [] };
          }
          // The photos of the view as markers, kept up to date by the function returned (call
          // it when the view moves): view() gives [west, south, east, north, the tiles' zoom];
          // make(properties, longitude, latitude) adds a marker for a cluster or photo and
          // returns it, drop(marker) removes one. Markers still shown stay (an open popup stays
          // open); the others go.
          function photoMarkers(view, make, drop) {
            let pending = null;
            let shown = new Map();
            return async function reload() {
              const [west, south, east, north, zoom] = view();
              if (pending) { pending.abort(); }
              pending = new AbortController();
              let answer;
              try {
                answer = await annotations(west, south, east, north, zoom, pending.signal);
              } catch (error) { return; }
              const next = new Map();
              window.mapwright.markers = [];
              for (const feature of answer.features) {
                const [longitude, latitude] = feature.geometry.coordinates;
                const properties = feature.properties;
                const key = properties.cluster ? "c" + properties.cluster_id + "@" + zoom : "p" + properties.id;
                window.mapwright.markers.push(properties);
                if (shown.has(key)) { next.set(key, shown.get(key)); shown.delete(key); continue; }
                next.set(key, make(properties, longitude, latitude));
              }
              for (const marker of shown.values()) { drop(marker); }
              shown = next;
              window.mapwright.ready = true;
            };
          }
          function clusterBubble(properties) {
            const side = properties.point_count < 10 ? 30 : properties.point_count < 100 ? 36 : 44;
            const bubble = document.createElement("div");
            bubble.className = "mw-cluster";
            bubble.style.width = side + "px";
            bubble.style.height = side + "px";
            bubble.textContent = String(properties.point_count_abbreviated);
            bubble.title = properties.point_count + " photos";
            bubble.dataset.clusterId = String(properties.cluster_id);
            bubble.dataset.expansionZoom = String(properties.expansion_zoom);
            return bubble;
          }

          const index = await json("index.json");
          if (!index) { say("The server answers no layers."); return; }
          const page = { index: index, say: say, json: json, described: described, modeLink: modeLink, popup: popup,
                         photoMarkers: photoMarkers, clusterBubble: clusterBubble };
          if (mode === "gl") { await glViewer(page); } else { await leafletViewer(page); }
        })();
        \#(leafletScript)
        \#(glScript)
        </script>
        </body>
        </html>
        """#
}
