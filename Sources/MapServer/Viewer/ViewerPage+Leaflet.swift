extension ViewerPage {
    /// The Leaflet mode, `leafletViewer(page)`: a base layer per style and per raster tileset, the
    /// photo overlay tiles (off by default: the photos come as markers) and the photos' density
    /// map ("Photo density", off by default), in a layer switcher, with each TileJSON's
    /// attribution; the photos as Leaflet markers; "For GL clients" (class `mw-links`): a link to
    /// each style's `style.json` and each data TileJSON (`data/NAME.json`); "GL view" (class
    /// `mw-mode`) opens the GL mode.
    static let leafletScript = #"""
        async function leafletViewer(page) {
          const map = L.map("map", { worldCopyJump: true });
          window.mapwright.map = map;
          const bases = {}, overlays = {}, links = [];
          let firstBase = null, startBounds = null, styles = 0;
          for (const tile of page.index) {
            const { kind, name, named, template } = page.described(tile);
            // What GL clients read: each style's style.json, each data TileJSON (the tilesets'
            // files again, and the styles' vector tiles: links, not layers).
            if (kind === "data") { links.push(["Data: " + tile.name, named + ".json"]); continue; }
            if (kind === "styles") { links.push(["Style: " + tile.name, named + "/style.json"]); styles += 1; }
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
            if (kind === "overlays" && name === "heatmap") {
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
          const tracks = await page.json("overlays/tracks.json");
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
          if (styles > 0) {
            const control = L.control({ position: "bottomleft" });
            control.onAdd = function () {
              const box = L.DomUtil.create("div", "mw-mode");
              box.appendChild(page.modeLink("GL view (MapLibre)", "?gl"));
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

          const reload = page.photoMarkers(function () {
            const bounds = map.getBounds();
            return [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth(), Math.floor(map.getZoom())];
          }, function (properties, longitude, latitude) {
            let marker;
            if (properties.cluster) {
              const bubble = page.clusterBubble(properties);
              const side = parseInt(bubble.style.width, 10);
              const icon = L.divIcon({ className: "", iconSize: [side, side], html: bubble });
              marker = L.marker([latitude, longitude], { icon: icon, title: properties.point_count + " photos" });
              marker.on("click", function () { map.setView([latitude, longitude], properties.expansion_zoom); });
            } else {
              marker = L.marker([latitude, longitude], { icon: new L.Icon.Default({ className: "mw-photo" }), title: properties.title });
              marker.bindPopup(function () { return page.popup(properties); });
            }
            return marker.addTo(photos);
          }, function (marker) { photos.removeLayer(marker); });
          map.on("moveend", reload);
          reload();
        }
        """#
}
