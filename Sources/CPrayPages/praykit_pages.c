// The page files, embedded byte for byte (clang's #embed, as CPrayPlacesData does: the compiler
// records each file as a dependency, so SwiftPM rebuilds this file when a page changes). A new file
// is one array and one row of the table below.
#include "praykit_pages.h"

// #embed is C23; clang accepts it in the package's C17 mode as an extension (clang 19 and later).
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char display_html[] = {
#embed "../PrayServer/Pages/display.html"
};

static const unsigned char display_css[] = {
#embed "../PrayServer/Pages/display.css"
};

static const unsigned char display_js[] = {
#embed "../PrayServer/Pages/display.js"
};

static const unsigned char display_model_js[] = {
#embed "../PrayServer/Pages/display-model.js"
};

static const unsigned char display_words_js[] = {
#embed "../PrayServer/Pages/display-words.js"
};

static const unsigned char month_html[] = {
#embed "../PrayServer/Pages/month.html"
};

static const unsigned char month_css[] = {
#embed "../PrayServer/Pages/month.css"
};

static const unsigned char month_js[] = {
#embed "../PrayServer/Pages/month.js"
};

static const unsigned char month_model_js[] = {
#embed "../PrayServer/Pages/month-model.js"
};

static const praykit_page_file files[] = {
    {"/display", "text/html; charset=utf-8", display_html, sizeof display_html},
    {"/display.css", "text/css; charset=utf-8", display_css, sizeof display_css},
    {"/display.js", "text/javascript; charset=utf-8", display_js, sizeof display_js},
    {"/display-model.js", "text/javascript; charset=utf-8", display_model_js, sizeof display_model_js},
    {"/display-words.js", "text/javascript; charset=utf-8", display_words_js, sizeof display_words_js},
    {"/month", "text/html; charset=utf-8", month_html, sizeof month_html},
    {"/month.css", "text/css; charset=utf-8", month_css, sizeof month_css},
    {"/month.js", "text/javascript; charset=utf-8", month_js, sizeof month_js},
    {"/month-model.js", "text/javascript; charset=utf-8", month_model_js, sizeof month_model_js},
};

const praykit_page_file *praykit_page_files(size_t *count) {
    *count = sizeof files / sizeof files[0];
    return files;
}
