extension ViewerPage {
    /// The GL mode, `glViewer(page)`, for `?gl`: MapLibre GL JS (loaded from `maplibre-gl/` only
    /// in this mode) draws `styles/NAME/style.json`, NAME from `?style=NAME` (a style's name as
    /// `index.json` gives it), else the first style; a menu (class `mw-mode`) picks another style
    /// or goes back to the Leaflet mode. The view is kept in the address as `#view=ZOOM/LAT/LON/BEARING/PITCH`
    /// (GL JS's `hash` option; MapLibre zooms, 512-pixel tiles), which a link may carry; without
    /// one the view starts on the photos' bounds. A navigation control zooms, rotates and tilts
    /// (right-drag or Ctrl-drag rotates and tilts with the mouse, GL JS's defaults).
    ///
    /// The photos are the server's clusters (`annotations.json` at the tiles' zoom, the map's
    /// MapLibre zoom + 1, whole) as HTML markers, so no glyphs are needed: a cluster's bubble
    /// eases to its expansion zoom (MapLibre zoom `expansion_zoom − 1`) when clicked; a photo's
    /// pin opens its popup, built when it opens (the thumbnail is fetched then). Tracks and shapes
    /// of `overlays/tracks.json` are a GeoJSON source, `mw-tracks`, drawn by the layers
    /// `mw-tracks-lines` and `mw-tracks-points` on top of the style. The server's tiles answered
    /// 503 (drawing them would keep the client waiting) are asked for again, as in the Leaflet mode.
    static let glScript = #"""
        function loaded(element) {
          return new Promise(function (resolve) {
            element.onload = function () { resolve(true); };
            element.onerror = function () { resolve(false); };
            document.head.appendChild(element);
          });
        }
        async function glViewer(page) {
          const stylesheet = document.createElement("link");
          stylesheet.rel = "stylesheet";
          stylesheet.href = "maplibre-gl/maplibre-gl.css";
          const script = document.createElement("script");
          script.src = "maplibre-gl/maplibre-gl.js";
          const [, scriptLoaded] = await Promise.all([loaded(stylesheet), loaded(script)]);
          if (!scriptLoaded || !window.maplibregl) {
            page.say("MapLibre GL JS is not installed on the server (run scripts/setup.sh): the GL view cannot show.");
            return;
          }
          const styles = [];
          let startBounds = null, tilesetBounds = null;
          for (const tile of page.index) {
            const { kind, name } = page.described(tile);
            if (kind === "styles") { styles.push({ title: tile.name, name: name }); }
            if (kind === "overlays" && name === "photos" && tile.bounds) { startBounds = tile.bounds; }
            if (kind === "tilesets" && !tilesetBounds && tile.bounds) { tilesetBounds = tile.bounds; }
          }
          if (styles.length === 0) { page.say("The server serves no styles for GL clients."); return; }
          const wanted = new URLSearchParams(location.search).get("style");
          const style = styles.find(function (s) { return decodeURIComponent(s.name) === wanted; }) || styles[0];
          // A tile of this server it could not draw yet under load (503 with Retry-After) is
          // asked for again, up to three times, 2, 4 and 6 s later (Retry-After when longer), as
          // the Leaflet mode does: GL JS would keep the hole. Other answers are GL JS's own.
          const retried = "mapwright-retry://";
          maplibregl.addProtocol("mapwright-retry", async function (request, abort) {
            const url = request.url.slice(retried.length);
            for (let tries = 1; ; tries += 1) {
              const response = await fetch(url, { signal: abort.signal });
              if (response.ok) {
                return { data: await response.arrayBuffer(), cacheControl: response.headers.get("Cache-Control"),
                         expires: response.headers.get("Expires") };
              }
              if (response.status !== 503 || tries > 3) {
                throw new maplibregl.AJAXError(response.status, response.statusText, url, await response.blob());
              }
              const after = Number(response.headers.get("Retry-After")) || 0;
              await new Promise(function (resolve) { setTimeout(resolve, Math.max(2000 * tries, 1000 * after)); });
            }
          });
          function transformRequest(url, type) {
            if (type === "Tile" && url.indexOf(location.origin + "/") === 0) { return { url: retried + url }; }
            return undefined;
          }
          // A view in the address (GL JS's hash) wins over the photos' bounds.
          const viewGiven = /(^#|&)view=/.test(location.hash);
          const map = new maplibregl.Map({ container: "map", style: "styles/" + style.name + "/style.json",
                                           center: [0, 20], zoom: 1, hash: "view", maxPitch: 85, transformRequest: transformRequest });
          window.mapwright.map = map;
          window.mapwright.style = decodeURIComponent(style.name);
          map.on("error", function (event) {
            const error = event && event.error;
            window.mapwright.errors.push(String(error && error.message ? error.message : error));
          });
          map.on("movestart", function () { window.mapwright.idle = false; });
          map.on("idle", function () { window.mapwright.idle = true; });
          map.addControl(new maplibregl.NavigationControl({ visualizePitch: true }), "top-right");
          map.addControl(new maplibregl.ScaleControl(), "bottom-right");

          const menu = document.createElement("div");
          menu.className = "mw-mode maplibregl-ctrl";
          menu.appendChild(page.modeLink("Leaflet view", location.pathname));
          if (styles.length > 1) {
            const select = document.createElement("select");
            for (const each of styles) {
              const option = document.createElement("option");
              option.value = decodeURIComponent(each.name);
              option.textContent = each.title;
              option.selected = each === style;
              select.appendChild(option);
            }
            select.addEventListener("change", function () {
              location.search = "?gl&style=" + encodeURIComponent(select.value);
            });
            menu.appendChild(select);
          }
          map.addControl({ onAdd: function () { return menu; }, onRemove: function () { menu.remove(); } }, "top-left");

          const bounds = startBounds || tilesetBounds;
          if (!viewGiven && bounds && bounds[2] - bounds[0] < 359) {
            map.fitBounds([[bounds[0], bounds[1]], [bounds[2], bounds[3]]], { padding: 40, maxZoom: 13, animate: false });
          }

          const tracks = await page.json("overlays/tracks.json");
          function addTracks() {
            if (!tracks || tracks.features.length === 0 || map.getSource("mw-tracks")) { return; }
            map.addSource("mw-tracks", { type: "geojson", data: tracks });
            map.addLayer({ id: "mw-tracks-lines", type: "line", source: "mw-tracks",
                           filter: ["!=", ["geometry-type"], "Point"],
                           layout: { "line-join": "round", "line-cap": "round" },
                           paint: { "line-color": "#007aff", "line-width": 4, "line-opacity": 0.9 } });
            map.addLayer({ id: "mw-tracks-points", type: "circle", source: "mw-tracks",
                           filter: ["==", ["geometry-type"], "Point"],
                           paint: { "circle-color": "#007aff", "circle-radius": 5, "circle-stroke-color": "#fff", "circle-stroke-width": 2 } });
          }
          if (map.loaded()) { addTracks(); } else { map.on("load", addTracks); }

          const reload = page.photoMarkers(function () {
            const view = map.getBounds();
            return [view.getWest(), view.getSouth(), view.getEast(), view.getNorth(), Math.max(0, Math.floor(map.getZoom()) + 1)];
          }, function (properties, longitude, latitude) {
            let marker;
            if (properties.cluster) {
              const bubble = page.clusterBubble(properties);
              bubble.addEventListener("click", function (event) {
                event.stopPropagation();
                map.easeTo({ center: [longitude, latitude], zoom: properties.expansion_zoom - 1 });
              });
              marker = new maplibregl.Marker({ element: bubble });
            } else {
              const callout = new maplibregl.Popup({ offset: 25, maxWidth: "320px" });
              callout.on("open", function () { callout.setDOMContent(page.popup(properties)); });
              marker = new maplibregl.Marker({ className: "mw-photo" }).setPopup(callout);
              marker.getElement().title = properties.title;
            }
            return marker.setLngLat([longitude, latitude]).addTo(map);
          }, function (marker) { marker.remove(); });
          map.on("moveend", reload);
          if (map.loaded()) { reload(); } else { map.once("load", reload); }
        }
        """#
}
