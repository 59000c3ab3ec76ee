
import{a}from"./chunk-5FGRO5BI.js";import"./chunk-7YWC3P3A.js";export{a as NotReviewedError};
