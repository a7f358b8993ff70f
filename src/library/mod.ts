/**
 * The library: filing comics (CBZ, CBR) and PDFs. What a file says about itself
 * (`comic_info_read.ts`, `pdf_info_read.ts`, `pdf_vision.ts` for scanned pages), what the lookups
 * add (`metadata_lookup.ts`: ComicVine, Open Library), where it belongs (`library_layout.ts`,
 * `library_place.ts`, `comic_file_name.ts`), and writing its metadata as a journaled change
 * (`comic_info_write.ts`, `file_tagging.ts`); `library_scan.ts` plans a backlog. The documents are
 * parsed in a subprocess behind the ports in `pdf_reader.ts` and `comic_archive.ts`
 * (`src/adapters/pdf/`, `src/adapters/archive/`); `build_library.ts` assembles them once. The
 * tools (`comic_info`, `pdf_extract`) and `radar library` import from this face.
 */
export { buildLibrary } from "./build_library.ts";
export { type ComicArchives, comicFormatOf } from "./comic_archive.ts";
export { type PdfContents, type PdfInfoWriter, type PdfReader, selectPages } from "./pdf_reader.ts";
export { createMetadataLookup, type MetadataLookup } from "./metadata_lookup.ts";
export { describeComic } from "./comic_info_read.ts";
export { describePdf } from "./pdf_info_read.ts";
export { setComicInfo, setPdfInfo, type WriteDependencies } from "./comic_info_write.ts";
export { imagePageLines, maxVisionPages, type PageReadings, readImagePages } from "./pdf_vision.ts";
export { filesToFile, type FilingStep, planFile } from "./library_scan.ts";
export { comicVineDefaultBase, openLibraryDefaultBase } from "./lookup_services.ts";
