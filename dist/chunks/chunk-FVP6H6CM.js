
var i="specs:shaping";function e(n){return JSON.stringify([...n])}function a(n){if(n==="")return new Map;let r=JSON.parse(n);if(!Array.isArray(r))throw new Error(`${i} is not a list of entries.`);return new Map(r)}export{i as a,e as b,a as c};
