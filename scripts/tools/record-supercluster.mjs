#!/usr/bin/env node
// Records what supercluster, the reference implementation of Mapwright's clustering, makes of a
// few deterministic point sets: the fixtures of Tests/MapCoreTests/SuperclusterFixtureTests.swift.
//
//     node scripts/tools/record-supercluster.mjs SUPERCLUSTER_DIR KDBUSH_DIR OUT_DIR
//
// SUPERCLUSTER_DIR holds supercluster's index.js (an ES module; https://github.com/mapbox/supercluster,
// recorded with 8.0.1, commit 8dd72ac) and KDBUSH_DIR kdbush's (https://github.com/mourner/kdbush,
// 4.1.0, commit e5cdc23): a checkout of each, or `git -C REPO show HEAD:index.js > DIR/index.js`.
// Both are ISC licensed; this script holds none of their code and the repository keeps only
// what they computed. It copies the two files to a temporary folder (supercluster imports
// 'kdbush', resolved there as node_modules/kdbush), runs node only, and needs no network.
//
// For each point set it writes OUT_DIR/supercluster-NAME.json (one zoom to a line):
//   - "options": supercluster's radius, extent, minPoints, minZoom, maxZoom. Mapwright's
//     ClusterOptions(radiusPoints: radius, minimumPoints: minPoints, minimumZoom: minZoom,
//     maximumZoom: maxZoom, tileSizePoints: extent) is the same clustering.
//   - "input": the points, a GeoJSON FeatureCollection; a leaf is named by its position here.
//   - "zooms": for every zoom minZoom...maxZoom + 1, getClusters([-180, -90, 180, 90], zoom)
//     (the whole world: the poles' points lie north of latitude 85, whose y is clamped to 0):
//     "points", the lone inputs' positions, sorted; "clusters", a FeatureCollection of the
//     clusters (coordinates, point_count, and "leaves": getLeaves(id, Infinity) as input
//     positions, sorted), sorted by their first leaf.
// Supercluster clusters greedily in the order of its input, and Mapwright in an order of its
// own (by the cells of a grid), so the recorder also runs supercluster over other orders of the
// same input: seeded shuffles, and north to south (rows one cluster radius of maxZoom tall, west
// to east within a row: near the order Mapwright sweeps its deepest zoom in). Per zoom:
//   - "orderIndependent": whether every order made the same clusters (as sets of inputs);
//   - "clusterCounts": the fewest and most clusters an order made;
//   - "stablePoints": the inputs every order left alone, and per cluster "stable": whether
//     every order made it.
// The test holds Mapwright to what no order of supercluster's changed.

import {copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';

const [superclusterDir, kdbushDir, outDir] = process.argv.slice(2);
if (!outDir) {
    console.error('usage: record-supercluster.mjs SUPERCLUSTER_DIR KDBUSH_DIR OUT_DIR');
    process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'record-supercluster-'));
let Supercluster;
try {
    mkdirSync(join(work, 'node_modules', 'kdbush'), {recursive: true});
    copyFileSync(join(resolve(kdbushDir), 'index.js'), join(work, 'node_modules', 'kdbush', 'index.js'));
    writeFileSync(join(work, 'node_modules', 'kdbush', 'package.json'),
        JSON.stringify({name: 'kdbush', type: 'module', exports: './index.js'}));
    copyFileSync(join(resolve(superclusterDir), 'index.js'), join(work, 'supercluster.js'));
    writeFileSync(join(work, 'package.json'), JSON.stringify({type: 'module'}));
    Supercluster = (await import(pathToFileURL(join(work, 'supercluster.js')).href)).default;
} finally {
    rmSync(work, {recursive: true, force: true});
}

/// The seeded shuffles run besides the given order and the north-to-south one.
const SHUFFLES = 32;

/// mulberry32: a small seeded generator, so every run records the same points.
function random(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/// Degrees rounded to 1e-6, so that the JSON numbers are short and read back exactly alike.
const round6 = value => Math.round(value * 1e6) / 1e6;

function gaussian(next) {
    const u = Math.max(next(), 1e-12), v = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const sets = [
    {
        // Seeded random points over the world, Mapwright's default options. Not within 30° of the
        // antimeridian, so that no cluster radius (56.25° at zoom 0) reaches across it: there
        // supercluster has a seam and Mapwright none (the antimeridian set is for that).
        name: 'world',
        options: {radius: 40, extent: 256, minPoints: 2, minZoom: 0, maxZoom: 16},
        points: (() => {
            const next = random(1);
            return Array.from({length: 1000}, () => [round6(next() * 300 - 150), round6(next() * 160 - 80)]);
        })(),
    },
    {
        // A city: neighbourhoods of different sizes around Helsinki, a larger radius, tiles of 512
        // points, and clusters of at least 3.
        name: 'city',
        options: {radius: 60, extent: 512, minPoints: 3, minZoom: 0, maxZoom: 15},
        points: (() => {
            const next = random(2);
            const centres = Array.from({length: 12}, () =>
                [24.94 + (next() - 0.5) * 0.3, 60.17 + (next() - 0.5) * 0.12, 0.0005 + next() * 0.01]);
            return Array.from({length: 1000}, () => {
                const [lng, lat, spread] = centres[Math.floor(next() * centres.length)];
                return [round6(lng + gaussian(next) * spread * 2), round6(lat + gaussian(next) * spread)];
            });
        })(),
    },
    {
        // Points either side of Greenwich, some exactly on it: supercluster has a seam at the
        // antimeridian and Mapwright has none, so the test moves these 180° onto the antimeridian
        // (0 to 180, 1 to -179) and expects supercluster's clusters of them here.
        name: 'antimeridian',
        options: {radius: 40, extent: 256, minPoints: 2, minZoom: 0, maxZoom: 10},
        points: (() => {
            const next = random(3);
            const points = Array.from({length: 120}, () => [round6((next() - 0.5) * 4), round6(-20 + next() * 40)]);
            return points.concat([[0, 0], [0, 10], [0, -10], [0.001, 5], [-0.001, 5], [0, 30]]);
        })(),
    },
    {
        // Points near the poles and beyond ±85.0511°, where Web Mercator stops (y is clamped); as
        // far from the antimeridian as the world's.
        name: 'poles',
        options: {radius: 40, extent: 256, minPoints: 2, minZoom: 0, maxZoom: 8},
        points: (() => {
            const next = random(4);
            return Array.from({length: 200}, () => {
                const north = next() < 0.5;
                const lat = 80 + next() * 10;
                return [round6(next() * 300 - 150), round6(north ? lat : -lat)];
            }).concat([[0, 90], [10, 90], [0, -90], [45, 85.0511], [45, 85.0512]]);
        })(),
    },
    {
        // Towns: tight groups of points far apart, where the clustering depends little on the
        // order over many zooms; as far from the antimeridian as the world's.
        name: 'towns',
        options: {radius: 40, extent: 256, minPoints: 2, minZoom: 0, maxZoom: 16},
        points: (() => {
            const next = random(6);
            const points = [];
            for (let town = 0; town < 60; town++) {
                const lng = next() * 300 - 150, lat = next() * 140 - 70, spread = 0.0002 + next() * 0.002;
                const count = 2 + Math.floor(next() * 15);
                for (let point = 0; point < count; point++) {
                    points.push([round6(lng + gaussian(next) * spread), round6(lat + gaussian(next) * spread)]);
                }
            }
            return points;
        })(),
    },
    {
        // Duplicates: a few places each with many points at exactly one coordinate, a few near
        // them, and clusters of at least 4.
        name: 'duplicates',
        options: {radius: 40, extent: 256, minPoints: 4, minZoom: 0, maxZoom: 16},
        points: (() => {
            const next = random(5);
            const points = [];
            for (let place = 0; place < 10; place++) {
                const lng = round6(next() * 300 - 150), lat = round6(next() * 120 - 60);
                const copies = 1 + Math.floor(next() * 12);
                for (let copy = 0; copy < copies; copy++) points.push([lng, lat]);
                for (let near = 0; near < 3; near++) {
                    points.push([round6(lng + (next() - 0.5) * 1e-4), round6(lat + (next() - 0.5) * 1e-4)]);
                }
            }
            return points;
        })(),
    },
];

/// Supercluster over the points in `order` (input positions); the clusters of each zoom as
/// sorted lists of input positions, and the lone points.
function run(points, options, order) {
    const features = order.map(position => ({
        type: 'Feature', properties: {index: position}, geometry: {type: 'Point', coordinates: points[position]},
    }));
    const index = new Supercluster({...options, log: false}).load(features);
    const zooms = [];
    for (let zoom = options.minZoom; zoom <= options.maxZoom + 1; zoom++) {
        const clusters = [], lone = [];
        for (const feature of index.getClusters([-180, -90, 180, 90], zoom)) {
            if (feature.properties.cluster) {
                const leaves = index.getLeaves(feature.properties.cluster_id, Infinity)
                    .map(leaf => leaf.properties.index).sort((a, b) => a - b);
                clusters.push({feature, leaves});
            } else {
                lone.push(feature.properties.index);
            }
        }
        clusters.sort((a, b) => a.leaves[0] - b.leaves[0]);
        lone.sort((a, b) => a - b);
        zooms.push({zoom, clusters, lone});
    }
    return zooms;
}

const signature = zoom => JSON.stringify([zoom.lone, zoom.clusters.map(cluster => cluster.leaves)]);

/// The inputs north to south in rows one cluster radius at `maxZoom` tall, west to east in a row.
function northToSouth(points, options) {
    const row = options.radius / (options.extent * 2 ** options.maxZoom);
    const keys = points.map(([lng, lat]) => {
        const sine = Math.sin(lat * Math.PI / 180);
        const y = Math.min(1, Math.max(0, 0.5 - 0.25 * Math.log((1 + sine) / (1 - sine)) / Math.PI));
        return [Math.floor(y / row), lng];
    });
    return points.map((_, position) => position).sort((a, b) => keys[a][0] - keys[b][0] || keys[a][1] - keys[b][1] || a - b);
}

mkdirSync(outDir, {recursive: true});
for (const set of sets) {
    const identity = set.points.map((_, position) => position);
    const runs = [run(set.points, set.options, identity), run(set.points, set.options, northToSouth(set.points, set.options))];
    for (let shuffle = 1; shuffle <= SHUFFLES; shuffle++) {
        const next = random(1000 + shuffle);
        const order = identity.slice();
        for (let i = order.length - 1; i > 0; i--) {
            const j = Math.floor(next() * (i + 1));
            [order[i], order[j]] = [order[j], order[i]];
        }
        runs.push(run(set.points, set.options, order));
    }
    const lines = runs[0].map((zoom, number) => {
        const counts = runs.map(other => other[number].clusters.length);
        const madeBy = runs.map(other => new Set(other[number].clusters.map(cluster => JSON.stringify(cluster.leaves))));
        const loneIn = runs.map(other => new Set(other[number].lone));
        return JSON.stringify({
            zoom: zoom.zoom,
            orderIndependent: runs.every(other => signature(other[number]) === signature(zoom)),
            clusterCounts: [Math.min(...counts), Math.max(...counts)],
            points: zoom.lone,
            stablePoints: zoom.lone.filter(position => loneIn.every(lone => lone.has(position))),
            clusters: {
                type: 'FeatureCollection',
                features: zoom.clusters.map(({feature, leaves}) => ({
                    type: 'Feature',
                    geometry: feature.geometry,
                    properties: {
                        point_count: feature.properties.point_count,
                        stable: madeBy.every(made => made.has(JSON.stringify(leaves))),
                        leaves,
                    },
                })),
            },
        });
    });
    const input = JSON.stringify({
        type: 'FeatureCollection',
        features: set.points.map(coordinates => ({type: 'Feature', properties: {}, geometry: {type: 'Point', coordinates}})),
    });
    const text = `{"name": ${JSON.stringify(set.name)},\n"options": ${JSON.stringify(set.options)},\n` +
        `"orders": ${runs.length},\n"input": ${input},\n"zooms": [\n${lines.join(',\n')}\n]}\n`;
    writeFileSync(join(outDir, `supercluster-${set.name}.json`), text);
    const independent = runs[0].filter((_, number) => JSON.parse(lines[number]).orderIndependent).length;
    console.log(`${set.name}: ${set.points.length} points, ${runs[0].length} zooms, ${independent} order-independent`);
}
