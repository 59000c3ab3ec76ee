
import{a}from"./chunk-5FGRO5BI.js";import"./chunk-THFKJ363.js";export{a as NotReviewedError};
