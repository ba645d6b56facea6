<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: the shared layout, imported by grid.xsl and preview.xsl.

  Parameters (set by Vitrine for every page, see docs/model.md):
    page  the @id of the element to render: a <page> (grid.xsl), an <entry> (preview.xsl)
          or the <site> of a home page (home.xsl)
    root  the relative prefix from the rendered page to the output root: '', '../', '../../'
    styles  the text of this theme's vitrine.css, to put in the page itself; empty when a style
          element cannot hold it whole (Templates/README.md says when): then every page links it

  The page skeleton is the template for "/" below. It renders the element named by
  $page ($current) through these modes, which grid.xsl and preview.xsl implement:
    title       text of <title>
    body-class  value of body/@class
    head        extra elements at the end of <head> (optional)
    bar         content between the site header and <main> (optional)
    main        content of <main>

  Rules for every template of a Vitrine theme: all links are concat($root, @href);
  text is only ever output with xsl:value-of (escaped), never with output escaping disabled.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:str="http://exslt.org/strings"
  exclude-result-prefixes="str">

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:param name="page" select="''"/>
  <xsl:param name="root" select="''"/>
  <xsl:param name="styles" select="''"/>

  <xsl:key name="by-id" match="*[@id]" use="@id"/>

  <!-- The element this page renders. -->
  <!-- Each grid's sizes attribute: its tile width per column count, from vitrine.css (its tile, gap and pad
       variables, the grids' minmax()). A column count starts where it fits beside a 17 px scrollbar, so the width is
       never narrower than the tile, with or without one, and at most 8 % wider, except in the 20 px above each
       step where a page without a scrollbar already has the next column. Tests/Browser/test_images.py checks it
       against the laid-out tiles; change both with the CSS (scripts/grid-sizes.py writes these lines). -->
  <xsl:variable name="tile-sizes-natural" select="'(min-width: 4329px) calc(7.143vw - 28px), (min-width: 4025px) calc(7.692vw - 28px), (min-width: 3721px) calc(8.333vw - 28px), (min-width: 3417px) calc(9.091vw - 29px), (min-width: 3113px) calc(10vw - 29px), (min-width: 2809px) calc(11.11vw - 30px), (min-width: 2505px) calc(12.5vw - 31px), (min-width: 2201px) calc(14.29vw - 32px), (min-width: 1897px) calc(16.67vw - 33px), (min-width: 812px) calc(20vw - 18px), (min-width: 646px) calc(25vw - 17px), (min-width: 487px) calc(33.33vw - 16px), (min-width: 331px) calc(50vw - 17px), calc(100vw - 24px)'"/>
  <xsl:variable name="tile-sizes-square" select="'(min-width: 4285px) calc(5.556vw - 27px), (min-width: 4051px) calc(5.882vw - 27px), (min-width: 3817px) calc(6.25vw - 27px), (min-width: 3583px) calc(6.667vw - 27px), (min-width: 3349px) calc(7.143vw - 28px), (min-width: 3115px) calc(7.692vw - 28px), (min-width: 2881px) calc(8.333vw - 28px), (min-width: 2647px) calc(9.091vw - 29px), (min-width: 2413px) calc(10vw - 29px), (min-width: 2179px) calc(11.11vw - 30px), (min-width: 1945px) calc(12.5vw - 31px), (min-width: 879px) calc(14.29vw - 18px), (min-width: 744px) calc(16.67vw - 16px), (min-width: 620px) calc(20vw - 15px), (min-width: 497px) calc(25vw - 14px), (min-width: 376px) calc(33.33vw - 14px), calc(50vw - 17px)'"/>
  <xsl:variable name="tile-sizes-album" select="'(min-width: 4297px) calc(6.25vw - 27px), (min-width: 4033px) calc(6.667vw - 27px), (min-width: 3769px) calc(7.143vw - 27px), (min-width: 3505px) calc(7.692vw - 28px), (min-width: 3241px) calc(8.333vw - 28px), (min-width: 2977px) calc(9.091vw - 29px), (min-width: 2713px) calc(10vw - 29px), (min-width: 2449px) calc(11.11vw - 30px), (min-width: 2185px) calc(12.5vw - 31px), (min-width: 1921px) calc(14.29vw - 31px), (min-width: 903px) calc(16.67vw - 19px), (min-width: 744px) calc(20vw - 17px), (min-width: 595px) calc(25vw - 16px), (min-width: 448px) calc(33.33vw - 15px), (min-width: 305px) calc(50vw - 16px), calc(100vw - 24px)'"/>
  <!-- The preview's picture, as vitrine.css lays it out: the width of main (100vw less twice the pad variable), or
       less where the picture's height, the screen's less the chrome variable, stops it. The height counts where a
       screen at least as wide, for its height, as the picture ({w}/{h}) shows that it does, and the picture's own
       12rem minimum is not reached; between that and the width of main, sizes says the width, a little larger than
       what is shown, never smaller. The chrome variable is larger from 40em down (641px is the first width above).
       No min(): the validator reads no comma inside a length. "photo-sizes" puts in the picture's width and height;
       the grid carries this for vitrine.js, which does the same for the tile it opens. -->
  <xsl:variable name="full-sizes" select="'(min-width: 1334px) and (min-aspect-ratio: {w}/{h}) and (min-height: 23rem) calc((100vh - 11rem) * {w} / {h}), (min-width: 1334px) calc(100vw - 80px), (min-width: 641px) and (min-aspect-ratio: {w}/{h}) and (min-height: 23rem) calc((100vh - 11rem) * {w} / {h}), (min-width: 641px) 94vw, (min-width: 400px) and (min-aspect-ratio: {w}/{h}) and (min-height: 26.5rem) calc((100vh - 14.5rem) * {w} / {h}), (min-width: 400px) 94vw, (min-aspect-ratio: {w}/{h}) and (min-height: 26.5rem) calc((100vh - 14.5rem) * {w} / {h}), calc(100vw - 24px)'"/>
  <xsl:variable name="current" select="key('by-id', $page)"/>
  <xsl:variable name="source-label" select="/gallery/source/@label"/>
  <!-- A gallery's first page; a "What's new" page that shows none of its items has it as history/@home. -->
  <xsl:variable name="home-href" select="(/gallery/collection[1]/page[1]/@href | /gallery/random/@href | /gallery/history/@home)[1]"/>
  <!-- The absolute URL the site is published at, ending in "/", when its config names one. -->
  <xsl:variable name="base-url" select="(/gallery/site/@base-url | /site/@base-url)[1]"/>
  <!-- What a path relative to the output root is prefixed with to make a URL of it: the base URL, else $root. -->
  <xsl:variable name="url-prefix" select="concat($base-url, substring($root, 1, 100000 * number(not($base-url))))"/>

  <!-- ============================================================ skeleton -->

  <xsl:template match="/">
    <xsl:if test="count($current) != 1">
      <xsl:message terminate="yes">vitrine: parameter page='<xsl:value-of select="$page"/>' names no element of the model</xsl:message>
    </xsl:if>
    <html lang="{*/@lang}">
      <head>
        <!-- The one charset declaration: libxslt's html output method updates this
             element in place instead of inserting a second one. -->
        <meta http-equiv="Content-Type" content="text/html; charset=UTF-8"/>
        <xsl:apply-templates select="$current" mode="preload"/>
        <!-- no favicon: an empty one keeps browsers from asking the server root for /favicon.ico -->
        <link rel="icon" href="data:,"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:apply-templates select="$current" mode="title"/></title>
        <meta name="color-scheme" content="light dark"/>
        <meta name="generator" content="Vitrine"/>
        <xsl:choose>
          <!-- A page of one photo links the stylesheet: there is one per photo, and the page a visitor comes
               from has fetched the file (vitrine.js). Any other page has it inline, so that its first layout waits
               for no other request: the grid's first picture is painted as soon as it arrives. -->
          <xsl:when test="$styles != '' and not($current/self::entry)">
            <style data-href="{concat($root, 'assets/vitrine.css')}"><xsl:value-of select="$styles"/></style>
          </xsl:when>
          <xsl:otherwise>
            <link rel="stylesheet" href="{concat($root, 'assets/vitrine.css')}"/>
          </xsl:otherwise>
        </xsl:choose>
        <xsl:if test="/gallery/search | /site/search">
          <!-- The search box needs search.js: without JavaScript it is not shown (the tag index is the way). -->
          <noscript><style>.site-search { display: none; }</style></noscript>
        </xsl:if>
        <xsl:apply-templates select="$current" mode="head"/>
        <xsl:apply-templates select="$current" mode="card"/>
        <script src="{concat($root, 'assets/vitrine.js')}" defer="defer"></script>
      </head>
      <body>
        <xsl:attribute name="class"><xsl:apply-templates select="$current" mode="body-class"/></xsl:attribute>
        <a class="skip" href="#main">Skip to content</a>
        <xsl:call-template name="site-header"/>
        <xsl:apply-templates select="$current" mode="bar"/>
        <main id="main">
          <xsl:apply-templates select="$current" mode="main"/>
        </main>
        <xsl:call-template name="site-footer"/>
        <!-- after the page, which a slow phone reads first: search engines read it anywhere -->
        <xsl:apply-templates select="$current" mode="rights-data"/>
      </body>
    </html>
  </xsl:template>

  <!-- Fallbacks: a stylesheet asked to render an element it has no template for fails
       loudly instead of printing the model's text. -->
  <xsl:template match="*" mode="main">
    <xsl:message terminate="yes">vitrine: this stylesheet cannot render &lt;<xsl:value-of select="name()"/>&gt; (parameter page='<xsl:value-of select="$page"/>')</xsl:message>
  </xsl:template>
  <xsl:template match="*" mode="title"><xsl:value-of select="/gallery/title"/></xsl:template>
  <xsl:template match="*" mode="body-class"/>
  <xsl:template match="*" mode="head"/>
  <!-- The head's first element: a <link rel="preload"> for the page's likely largest paint, if it has one. -->
  <xsl:template match="*" mode="preload"/>
  <!-- The page's schema.org JSON-LD (what its pictures are, under which license, whom to credit). -->
  <xsl:template match="*" mode="rights-data"/>
  <!-- Every other page's card: its title, its description (mode card-description) and the random page's picture
       when its license lets others copy it. A card's picture is copied by whoever shows the card (a link-preview
       service, a chat app), so a card has only pictures whose license/@copies is 'allowed' (or, for pictures
       without a license of their own, such as covers, files of the site, which Vitrine keeps of no other). -->
  <xsl:template match="*" mode="card">
    <xsl:if test="$base-url">
      <xsl:variable name="title"><xsl:apply-templates select="." mode="title"/></xsl:variable>
      <xsl:variable name="description"><xsl:apply-templates select="." mode="card-description"/></xsl:variable>
      <xsl:call-template name="preview-card">
        <xsl:with-param name="title" select="$title"/>
        <xsl:with-param name="description" select="$description"/>
        <xsl:with-param name="image" select="self::random/photo[license/@copies = 'allowed']/image[@role = 'full'][@src or @url]"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>
  <!-- The text of a page's og:description (the default card's), as plain text. -->
  <xsl:template match="*" mode="card-description"/>
  <xsl:template match="*" mode="bar"/>
  <xsl:template match="*" mode="toolbar-extra"/>

  <!-- ============================================================ header / footer -->

  <xsl:template name="site-header">
    <header class="site">
      <xsl:choose>
        <xsl:when test="/gallery/site">
          <a class="brand" href="{concat($root, /gallery/site/@href)}"><xsl:value-of select="/gallery/site/@title"/></a>
          <span class="sep" aria-hidden="true">›</span>
          <a class="brand sub" href="{concat($root, $home-href)}" dir="auto"><xsl:value-of select="/gallery/title"/></a>
        </xsl:when>
        <xsl:otherwise>
          <a class="brand" href="{concat($root, $home-href)}"><xsl:value-of select="/gallery/title"/></a>
        </xsl:otherwise>
      </xsl:choose>
      <p class="lede">
        <xsl:variable name="queries" select="/gallery/variants/variant[normalize-space(@query) != '']"/>
        <xsl:choose>
          <xsl:when test="$queries">
            <xsl:value-of select="$source-label"/>
            <xsl:text> results for </xsl:text>
            <xsl:for-each select="$queries">
              <xsl:if test="position() &gt; 1">
                <xsl:choose>
                  <xsl:when test="position() = last()"> and </xsl:when>
                  <xsl:otherwise>, </xsl:otherwise>
                </xsl:choose>
              </xsl:if>
              <q dir="auto"><xsl:value-of select="@query"/></q>
            </xsl:for-each>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>Images from </xsl:text>
            <xsl:value-of select="$source-label"/>
          </xsl:otherwise>
        </xsl:choose>
        <xsl:if test="/gallery/history">
          <xsl:text> · </xsl:text>
          <a class="changes" href="{concat($root, /gallery/history/@href)}">What’s new</a>
        </xsl:if>
        <xsl:if test="/gallery/archive">
          <xsl:text> · </xsl:text>
          <a class="archive" href="{concat($root, /gallery/archive/@href)}">No longer in the results</a>
        </xsl:if>
        <xsl:if test="/gallery/tags">
          <xsl:text> · </xsl:text>
          <a class="tag-index" href="{concat($root, /gallery/tags/@href)}">Tags</a>
        </xsl:if>
      </p>
      <xsl:call-template name="search-box"/>
    </header>
    <xsl:call-template name="notices"/>
  </xsl:template>

  <!-- The header and footer of the pages of a site itself (a <site> model: the home page, its "What's new" and tag
       pages), which their stylesheets call as their site-header and site-footer. -->
  <xsl:template name="home-header">
    <header class="site">
      <a class="brand" href="{concat($root, /site/@href)}"><xsl:value-of select="/site/title"/></a>
      <p class="lede">
        <xsl:value-of select="count(/site/gallery)"/>
        <xsl:choose>
          <xsl:when test="count(/site/gallery) = 1"> gallery</xsl:when>
          <xsl:otherwise> galleries</xsl:otherwise>
        </xsl:choose>
        <xsl:if test="/site/history">
          <xsl:text> · </xsl:text>
          <a class="changes" href="{concat($root, /site/history/@href)}">What’s new</a>
        </xsl:if>
        <xsl:if test="/site/tags">
          <xsl:text> · </xsl:text>
          <a class="tag-index" href="{concat($root, /site/tags/@href)}">Tags</a>
        </xsl:if>
      </p>
      <xsl:call-template name="search-box"/>
    </header>
  </xsl:template>

  <xsl:template name="home-footer">
    <footer class="site">
      <p>
        <xsl:text>Each gallery credits its images' authors and sources. Made with Vitrine.</xsl:text>
        <xsl:if test="/site/@feed">
          <xsl:text> </xsl:text>
          <a href="{concat($root, /site/@feed)}">Atom feed</a>
        </xsl:if>
      </p>
    </footer>
  </xsl:template>

  <!-- The search box: a plain GET form to the search page, so the query is in its address (?q=). -->
  <xsl:template name="search-box">
    <xsl:for-each select="(/gallery/search | /site/search)[1]">
      <form class="site-search" role="search" method="get" action="{concat($root, @href)}">
        <label class="vh" for="search-box">
          <xsl:choose>
            <xsl:when test="/site">Search every gallery</xsl:when>
            <xsl:otherwise>Search this gallery</xsl:otherwise>
          </xsl:choose>
        </label>
        <input type="search" id="search-box" name="q" placeholder="Search" autocomplete="off" spellcheck="false"
               enterkeyhint="search" aria-keyshortcuts="/" maxlength="200"/>
        <button type="submit">Search</button>
      </form>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="notices">
    <xsl:if test="/gallery/notice">
      <div class="notices">
        <xsl:for-each select="/gallery/notice">
          <p class="notice" data-kind="{@kind}">
            <strong>
              <xsl:choose>
                <xsl:when test="@kind = 'stale'">Saved copy: </xsl:when>
                <xsl:when test="@kind = 'warning'">Warning: </xsl:when>
                <xsl:otherwise>Note: </xsl:otherwise>
              </xsl:choose>
            </strong>
            <xsl:value-of select="."/>
          </p>
        </xsl:for-each>
      </div>
    </xsl:if>
  </xsl:template>

  <xsl:template name="site-footer">
    <footer class="site">
      <p>
        <xsl:text>Images from </xsl:text>
        <xsl:call-template name="external-link">
          <xsl:with-param name="href" select="/gallery/source/@home"/>
          <xsl:with-param name="text" select="$source-label"/>
        </xsl:call-template>
        <!-- Only where the page shows credits: JSONPlaceholder's photos, for one, have no author. -->
        <xsl:choose>
          <xsl:when test="//credit[not(@role = 'publication')]">
            <xsl:text>; each is credited to its author. Made with Vitrine.</xsl:text>
          </xsl:when>
          <xsl:when test="//credit">
            <xsl:text>; each is credited to the publication it appeared in. Made with Vitrine.</xsl:text>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>. Made with Vitrine.</xsl:text>
          </xsl:otherwise>
        </xsl:choose>
      </p>
    </footer>
  </xsl:template>

  <!-- ============================================================ toolbar (album hierarchies) -->

  <!--
    The toolbar of a page inside a hierarchy of collections: a back link to the level
    above and a breadcrumb from the top list to this page. Context: none ($current is
    a <page> of a nested collection, or an <entry>). A page of the top collection has
    no level above, so only the breadcrumb. The importing stylesheet may add controls
    after the breadcrumb in mode toolbar-extra.
  -->
  <xsl:template name="toolbar">
    <xsl:variable name="is-entry" select="boolean($current/self::entry)"/>
    <xsl:variable name="item" select="$current/parent::item"/>
    <xsl:variable name="trail" select="$current/ancestor::collection"/>
    <!-- the collection one level up: for a page, the parent of its collection; for an entry, its collection -->
    <xsl:variable name="up" select="$current/ancestor::collection[position() = 2 - number($is-entry)]"/>
    <nav class="toolbar" aria-label="Breadcrumb">
      <xsl:if test="$up">
        <a class="up" data-nav="up">
          <xsl:attribute name="href">
            <xsl:choose>
              <xsl:when test="$is-entry">
                <xsl:value-of select="concat($root, $up/page[@number = $item/@page]/@href, '#', $item/@id)"/>
              </xsl:when>
              <xsl:otherwise>
                <xsl:value-of select="concat($root, $up/page[1]/@href, '#', $current/../@id)"/>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:attribute>
          <span aria-hidden="true">←</span>
          <xsl:text>Back</xsl:text>
          <span class="vh"> to <xsl:call-template name="collection-name"><xsl:with-param name="c" select="$up"/></xsl:call-template></span>
        </a>
      </xsl:if>
      <ol class="crumbs">
        <xsl:for-each select="$trail">
          <li>
            <xsl:choose>
              <xsl:when test="not($is-entry) and position() = last()">
                <span aria-current="page"><xsl:call-template name="collection-name"/></span>
              </xsl:when>
              <xsl:when test="$is-entry and position() = last()">
                <a href="{concat($root, page[@number = $item/@page]/@href, '#', $item/@id)}"><xsl:call-template name="collection-name"/></a>
              </xsl:when>
              <xsl:otherwise>
                <a href="{concat($root, page[1]/@href)}"><xsl:call-template name="collection-name"/></a>
              </xsl:otherwise>
            </xsl:choose>
          </li>
        </xsl:for-each>
        <xsl:if test="$is-entry">
          <li>
            <span aria-current="page">
              <xsl:for-each select="$current"><xsl:call-template name="caption-or-position"/></xsl:for-each>
            </span>
          </li>
        </xsl:if>
      </ol>
      <xsl:apply-templates select="$current" mode="toolbar-extra"/>
    </nav>
  </xsl:template>

  <!-- A collection's title, or the gallery title when it is empty. -->
  <xsl:template name="collection-name">
    <xsl:param name="c" select="."/>
    <xsl:choose>
      <xsl:when test="normalize-space($c/@title) != ''"><xsl:value-of select="normalize-space($c/@title)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="/gallery/title"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ============================================================ shared pieces -->

  <!-- A link to an outside page, or plain text when the URL is absent or not http(s). -->
  <xsl:template name="external-link">
    <xsl:param name="href"/>
    <xsl:param name="text"/>
    <xsl:choose>
      <xsl:when test="starts-with($href, 'https://') or starts-with($href, 'http://')">
        <a href="{$href}" rel="noopener noreferrer" dir="auto"><xsl:value-of select="$text"/></a>
      </xsl:when>
      <xsl:otherwise><bdi><xsl:value-of select="$text"/></bdi></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!--
    The credit of an entry. On a tile ($full false): "Photo by NAME on Pixabay · CC BY 2.0", the name linked to
    the picture's page. On a preview page ($full true), as Creative Commons asks (title, author, source, license,
    each linked where the API says where): the title is the page's heading, then "Photo by NAME (linked to the
    author's page) on SOURCE (linked to the picture's page) · LICENSE (linked to the license)". A picture
    without a credit still gets its license and its link back. Context: an entry.
  -->
  <xsl:template name="credit">
    <xsl:param name="element" select="'p'"/>
    <xsl:param name="full" select="false()"/>
    <!-- the entry's gallery's source: on a site's tag page, each item's own -->
    <xsl:variable name="source" select="ancestor::gallery[1]/source/@label"/>
    <xsl:if test="credit or license">
      <xsl:element name="{$element}">
        <xsl:attribute name="class">credit</xsl:attribute>
        <xsl:choose>
          <xsl:when test="credit/@role = 'publication'">
            <xsl:text>Published by </xsl:text>
            <xsl:call-template name="external-link">
              <xsl:with-param name="href" select="credit/@href"/>
              <xsl:with-param name="text" select="credit/@name"/>
            </xsl:call-template>
          </xsl:when>
          <xsl:when test="credit and $full">
            <xsl:text>Photo by </xsl:text>
            <xsl:call-template name="external-link">
              <xsl:with-param name="href" select="credit/@author-href | credit/@href[not(../@author-href)]"/>
              <xsl:with-param name="text" select="credit/@name"/>
            </xsl:call-template>
            <xsl:text> on </xsl:text>
            <xsl:call-template name="external-link">
              <xsl:with-param name="href" select="credit/@href"/>
              <xsl:with-param name="text" select="$source"/>
            </xsl:call-template>
          </xsl:when>
          <xsl:when test="credit">
            <xsl:text>Photo by </xsl:text>
            <xsl:call-template name="external-link">
              <xsl:with-param name="href" select="credit/@href"/>
              <xsl:with-param name="text" select="credit/@name"/>
            </xsl:call-template>
            <xsl:text> on </xsl:text>
            <xsl:value-of select="$source"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>From </xsl:text>
            <xsl:value-of select="$source"/>
          </xsl:otherwise>
        </xsl:choose>
        <xsl:for-each select="license">
          <xsl:text> · </xsl:text>
          <span class="license">
            <xsl:if test="@copies != 'allowed'"><xsl:attribute name="data-copies"><xsl:value-of select="@copies"/></xsl:attribute></xsl:if>
            <xsl:call-template name="external-link">
              <xsl:with-param name="href" select="@href"/>
              <xsl:with-param name="text" select="@label"/>
            </xsl:call-template>
            <xsl:if test="@declared-by = 'site'"><xsl:text> (declared by the site)</xsl:text></xsl:if>
          </span>
        </xsl:for-each>
        <xsl:if test="ai-generated">
          <xsl:text> · </xsl:text>
          <span class="ai">AI-generated</span>
        </xsl:if>
        <xsl:if test="../@last-seen">
          <xsl:text> · </xsl:text>
          <xsl:call-template name="last-seen"/>
        </xsl:if>
      </xsl:element>
    </xsl:if>
  </xsl:template>

  <!-- "Last seen 23 September 2026, 14:13 UTC" on an item that left the results (keep = "all"), after its credit
       (the credit template adds it), or on its own when it has none. Context: an entry. -->
  <xsl:template name="last-seen">
    <xsl:param name="element" select="'span'"/>
    <xsl:if test="../@last-seen">
      <xsl:element name="{$element}">
        <xsl:attribute name="class">seen</xsl:attribute>
        <xsl:text>Last seen </xsl:text>
        <time datetime="{../@last-seen}"><xsl:value-of select="../@last-seen-label"/></time>
      </xsl:element>
    </xsl:if>
  </xsl:template>

  <!-- "Image 3 of 20", or "Image 3" where the view holds no count (a newest-first collection's). Context: an
       entry. -->
  <xsl:template name="position-text">
    <xsl:text>Image </xsl:text>
    <xsl:value-of select="../@position"/>
    <xsl:if test="../../@item-count">
      <xsl:text> of </xsl:text>
      <xsl:value-of select="../../@item-count"/>
    </xsl:if>
  </xsl:template>

  <!-- The caption, or "Image 3 of 20" when it is empty. Context: an entry. -->
  <xsl:template name="caption-or-position">
    <xsl:choose>
      <xsl:when test="normalize-space(caption) != ''"><xsl:value-of select="normalize-space(caption)"/></xsl:when>
      <xsl:otherwise><xsl:call-template name="position-text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The label of the variant whose key is $key. -->
  <xsl:template name="label-of">
    <xsl:param name="key"/>
    <!-- A site's tag page names each gallery's variants in its <gallery>, above the items. -->
    <xsl:variable name="v" select="(/gallery/variants/variant[@key = $key] | ancestor::gallery/variants/variant[@key = $key])[1]"/>
    <xsl:choose>
      <xsl:when test="$v"><xsl:value-of select="$v/@label"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$key"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Where the browser loads an <image> from: a file of the site (@src, relative to the root), or the API's own
       URL (@url) for a picture whose license does not let it be copied. -->
  <xsl:template name="image-href">
    <xsl:param name="img"/>
    <xsl:choose>
      <xsl:when test="$img/@url"><xsl:value-of select="$img/@url"/></xsl:when>
      <xsl:when test="$img/@src"><xsl:value-of select="concat($root, $img/@src)"/></xsl:when>
    </xsl:choose>
  </xsl:template>

  <!-- The preview picture's sizes attribute: $full-sizes with the width and height of the rendition the entry's
       tile shows, which the tile's <img> carries, so that vitrine.js, opening the preview from the grid, picks the
       same file. Without them, or for a picture narrower than 0.46 of its height (where a screen as wide, for its
       height, as the picture could still show it narrower than main: 80px against 11rem), the entries with the
       height are left out. Context: an entry. -->
  <xsl:template name="photo-sizes">
    <xsl:variable name="img" select="(image[@role = 'tile'] | image[not(../image[@role = 'tile'])])[1]"/>
    <xsl:variable name="w" select="floor(number($img/@width))"/>
    <xsl:variable name="h" select="floor(number($img/@height))"/>
    <xsl:call-template name="sized-entries">
      <xsl:with-param name="rest" select="concat($full-sizes, ', ')"/>
      <xsl:with-param name="w" select="$w"/>
      <xsl:with-param name="h" select="$h"/>
      <xsl:with-param name="by-height" select="$w &gt; 0 and $h &gt; 0 and 100 * $w &gt;= 46 * $h"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="sized-entries">
    <xsl:param name="rest"/>
    <xsl:param name="w"/>
    <xsl:param name="h"/>
    <xsl:param name="by-height"/>
    <xsl:param name="first" select="true()"/>
    <xsl:if test="$rest != ''">
      <xsl:variable name="entry" select="substring-before($rest, ', ')"/>
      <xsl:variable name="kept" select="$by-height or not(contains($entry, '{w}'))"/>
      <xsl:if test="$kept">
        <xsl:if test="not($first)">, </xsl:if>
        <xsl:call-template name="sized-entry">
          <xsl:with-param name="text" select="$entry"/>
          <xsl:with-param name="w" select="$w"/>
          <xsl:with-param name="h" select="$h"/>
        </xsl:call-template>
      </xsl:if>
      <xsl:call-template name="sized-entries">
        <xsl:with-param name="rest" select="substring-after($rest, ', ')"/>
        <xsl:with-param name="w" select="$w"/>
        <xsl:with-param name="h" select="$h"/>
        <xsl:with-param name="by-height" select="$by-height"/>
        <xsl:with-param name="first" select="$first and not($kept)"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- One entry of $full-sizes with {w} and {h} put in. -->
  <xsl:template name="sized-entry">
    <xsl:param name="text"/>
    <xsl:param name="w"/>
    <xsl:param name="h"/>
    <xsl:choose>
      <xsl:when test="contains($text, '{')">
        <xsl:variable name="key" select="substring(substring-after($text, '{'), 1, 1)"/>
        <xsl:value-of select="substring-before($text, '{')"/>
        <xsl:choose>
          <xsl:when test="$key = 'w'"><xsl:value-of select="$w"/></xsl:when>
          <xsl:otherwise><xsl:value-of select="$h"/></xsl:otherwise>
        </xsl:choose>
        <xsl:call-template name="sized-entry">
          <xsl:with-param name="text" select="substring-after($text, '}')"/>
          <xsl:with-param name="w" select="$w"/>
          <xsl:with-param name="h" select="$h"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!--
    An <img> for one rendition of an entry, or a placeholder box when the rendition
    is unavailable. Context: an entry.
      role   'tile' or 'full' (falls back to the other role when absent)
      eager  true() for images in the first screenful: no loading="lazy" nor
             decoding="async", so that they paint with the page
  -->
  <xsl:template name="image">
    <xsl:param name="role" select="'tile'"/>
    <xsl:param name="eager" select="false()"/>
    <!-- the sizes attribute for a srcset of both renditions; empty: no srcset -->
    <xsl:param name="sizes" select="''"/>
    <!-- true() when text next to the image already says what it shows: alt="" -->
    <xsl:param name="decorative" select="false()"/>
    <!-- true() for the one image most likely to be the largest painted (the first tile, the preview's picture) -->
    <xsl:param name="first" select="false()"/>
    <!-- true(): instead of the picture, the head's <link rel="preload"> for the file the picture will take in the
         first format it offers (a browser without that format preloads nothing and loses nothing) -->
    <xsl:param name="preload" select="false()"/>
    <!-- srcset candidates: every rendition with a file or URL and a width, one per width (the first in the
         model's order: tile, full, alternates) -->
    <xsl:variable name="candidates" select="image[@src or @url][floor(number(@width)) &gt; 0]"/>
    <xsl:variable name="img" select="(image[@role = $role] | image[not(../image[@role = $role])])[1]"/>
    <xsl:variable name="alt">
      <xsl:if test="not($decorative)"><xsl:call-template name="caption-or-position"/></xsl:if>
    </xsl:variable>
    <xsl:variable name="w" select="floor(number($img/@width))"/>
    <xsl:variable name="h" select="floor(number($img/@height))"/>
    <xsl:variable name="sized" select="$w &gt; 0 and $h &gt; 0"/>
    <xsl:choose>
      <xsl:when test="$img/@src or $img/@url">
        <xsl:variable name="several" select="$sizes != '' and $candidates[floor(number(@width)) != floor(number($candidates[1]/@width))]"/>
        <!-- the files in other formats, in the order of the first rendition that has some: one <source> each, with
             the screens it is for when the copies are for dense screens only -->
        <xsl:variable name="formats" select="(($candidates[$several] | $img)[encoding])[1]/encoding"/>
        <xsl:variable name="picture">
          <img src="{concat($img/@url, substring(concat($root, $img/@src), 1, 100000 * number(not($img/@url))))}" alt="{$alt}">
            <xsl:if test="$several">
              <xsl:attribute name="srcset">
                <xsl:call-template name="srcset"><xsl:with-param name="candidates" select="$candidates"/></xsl:call-template>
              </xsl:attribute>
              <xsl:attribute name="sizes"><xsl:value-of select="$sizes"/></xsl:attribute>
            </xsl:if>
            <xsl:if test="$sized">
              <xsl:attribute name="width"><xsl:value-of select="$w"/></xsl:attribute>
              <xsl:attribute name="height"><xsl:value-of select="$h"/></xsl:attribute>
            </xsl:if>
            <xsl:if test="not($eager)">
              <xsl:attribute name="loading">lazy</xsl:attribute>
              <xsl:attribute name="decoding">async</xsl:attribute>
            </xsl:if>
            <xsl:if test="$first">
              <xsl:attribute name="fetchpriority">high</xsl:attribute>
            </xsl:if>
          </img>
        </xsl:variable>
        <xsl:choose>
          <xsl:when test="$preload and $formats">
            <xsl:variable name="type" select="string($formats[1]/@type)"/>
            <xsl:for-each select="$formats[@type = $type]">
              <xsl:variable name="denser" select="preceding-sibling::encoding[@type = $type][@min-density][1]"/>
              <link rel="preload" as="image" type="{$type}" fetchpriority="high">
                <xsl:choose>
                  <xsl:when test="@min-density">
                    <xsl:attribute name="media"><xsl:value-of select="concat('(min-resolution: ', floor(number(@min-density)), 'dppx)')"/></xsl:attribute>
                  </xsl:when>
                  <xsl:when test="$denser">
                    <xsl:attribute name="media"><xsl:value-of select="concat('not all and (min-resolution: ', floor(number($denser/@min-density)), 'dppx)')"/></xsl:attribute>
                  </xsl:when>
                </xsl:choose>
                <xsl:choose>
                  <xsl:when test="$several">
                    <xsl:attribute name="imagesrcset">
                      <xsl:call-template name="srcset">
                        <xsl:with-param name="candidates" select="$candidates"/>
                        <xsl:with-param name="type" select="$type"/>
                        <xsl:with-param name="density" select="string(@min-density)"/>
                      </xsl:call-template>
                    </xsl:attribute>
                    <xsl:attribute name="imagesizes"><xsl:value-of select="$sizes"/></xsl:attribute>
                  </xsl:when>
                  <xsl:otherwise>
                    <xsl:attribute name="href">
                      <xsl:call-template name="copy-in-format"><xsl:with-param name="img" select="$img"/></xsl:call-template>
                    </xsl:attribute>
                  </xsl:otherwise>
                </xsl:choose>
              </link>
            </xsl:for-each>
          </xsl:when>
          <xsl:when test="$preload">
            <link rel="preload" as="image" fetchpriority="high" href="{concat($img/@url, substring(concat($root, $img/@src), 1, 100000 * number(not($img/@url))))}">
              <xsl:if test="$several">
                <xsl:attribute name="imagesrcset">
                  <xsl:call-template name="srcset"><xsl:with-param name="candidates" select="$candidates"/></xsl:call-template>
                </xsl:attribute>
                <xsl:attribute name="imagesizes"><xsl:value-of select="$sizes"/></xsl:attribute>
              </xsl:if>
            </link>
          </xsl:when>
          <xsl:when test="$formats">
            <picture>
              <xsl:for-each select="$formats">
                <source type="{@type}">
                  <xsl:if test="@min-density">
                    <xsl:attribute name="media">
                      <xsl:value-of select="concat('(min-resolution: ', floor(number(@min-density)), 'dppx)')"/>
                    </xsl:attribute>
                  </xsl:if>
                  <xsl:attribute name="srcset">
                    <xsl:choose>
                      <xsl:when test="$several">
                        <xsl:call-template name="srcset">
                          <xsl:with-param name="candidates" select="$candidates"/>
                          <xsl:with-param name="type" select="string(@type)"/>
                          <xsl:with-param name="density" select="string(@min-density)"/>
                        </xsl:call-template>
                      </xsl:when>
                      <xsl:otherwise>
                        <xsl:call-template name="copy-in-format"><xsl:with-param name="img" select="$img"/></xsl:call-template>
                      </xsl:otherwise>
                    </xsl:choose>
                  </xsl:attribute>
                  <xsl:if test="$several">
                    <xsl:attribute name="sizes"><xsl:value-of select="$sizes"/></xsl:attribute>
                  </xsl:if>
                </source>
              </xsl:for-each>
              <xsl:copy-of select="$picture"/>
            </picture>
          </xsl:when>
          <xsl:otherwise><xsl:copy-of select="$picture"/></xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <!-- a picture that is not there has nothing to preload -->
      <xsl:when test="not($preload)">
        <span class="ph">
          <xsl:if test="$sized">
            <xsl:attribute name="style">--w:<xsl:value-of select="$w"/>;--h:<xsl:value-of select="$h"/></xsl:attribute>
          </xsl:if>
          <span class="ph-text">
            <strong>Image unavailable</strong>
            <xsl:if test="normalize-space($img/unavailable) != ''">
              <span class="ph-why"><xsl:value-of select="normalize-space($img/unavailable)"/></span>
            </xsl:if>
            <xsl:if test="$alt != ''"><span class="vh">: <bdi><xsl:value-of select="$alt"/></bdi></span></xsl:if>
          </span>
        </span>
      </xsl:when>
    </xsl:choose>
  </xsl:template>


  <!-- The file of `img` in the format of the context <encoding> (its type, and its screens' density if it has one):
       its copy for those screens, else its copy for any, else the image's own file. -->
  <xsl:template name="copy-in-format">
    <xsl:param name="img"/>
    <xsl:variable name="type" select="string(@type)"/>
    <xsl:variable name="density" select="string(@min-density)"/>
    <xsl:variable name="copy" select="($img/encoding[@type = $type and string(@min-density) = $density] | $img/encoding[@type = $type and not(@min-density)])[1]"/>
    <xsl:value-of select="concat($root, ($copy | $img[not($copy)])/@src)"/>
  </xsl:template>

  <!-- A srcset of `candidates` (the renditions of an entry with a width), one per width, by width: of equal widths
       the first in the model's order. With `type`, each candidate's file in that format where it has one (with
       `density`, its copy for those screens, else its copy for any), else its own file or URL. -->
  <xsl:template name="srcset">
    <xsl:param name="candidates"/>
    <xsl:param name="type" select="''"/>
    <xsl:param name="density" select="''"/>
    <xsl:for-each select="$candidates">
      <xsl:sort select="floor(number(@width))" data-type="number"/>
      <xsl:if test="not(preceding-sibling::image[@src or @url][floor(number(@width)) = floor(number(current()/@width))])">
        <xsl:if test="position() != 1">, </xsl:if>
        <xsl:variable name="encoded" select="(encoding[@type = $type and string(@min-density) = $density] | encoding[@type = $type and not(@min-density)])[1]/@src"/>
        <xsl:choose>
          <xsl:when test="$encoded"><xsl:value-of select="concat($root, $encoded)"/></xsl:when>
          <!-- image-href's rule in plain XPath: the API's own URL, else the file's path -->
          <xsl:otherwise><xsl:value-of select="concat(@url, substring(concat($root, @src), 1, 100000 * number(not(@url))))"/></xsl:otherwise>
        </xsl:choose>
        <xsl:value-of select="concat(' ', floor(number(@width)), 'w')"/>
      </xsl:if>
    </xsl:for-each>
  </xsl:template>

  <!-- ============================================================ history pages -->

  <!-- Context: the <history> of a "What's new" page's view, whose <page> elements (newest first) are the pages its
       pager links: the newest (named "Latest", without a number when it is not a neighbour), the oldest and the
       neighbours. -->
  <xsl:template name="history-pager">
    <xsl:call-template name="pager">
      <xsl:with-param name="pages" select="page"/>
      <xsl:with-param name="n" select="number(@page)"/>
      <xsl:with-param name="newest-first" select="true()"/>
    </xsl:call-template>
  </xsl:template>

  <!-- ============================================================ pagination -->

  <!-- The pager of a grid page or a "What's new" page: the $pages the model gives it (the first, the last and those
       near the current one, number $n), a gap between two of them shown as an ellipsis. Listed oldest first, or
       newest first ($newest-first: the archive and the history, whose newest page is "Latest", its previous page
       the next newer one; the newest may have no number when it is not a neighbour). -->
  <xsl:template name="pager">
    <xsl:param name="pages"/>
    <xsl:param name="n"/>
    <xsl:param name="newest-first" select="false()"/>
    <xsl:variable name="step" select="1 - 2 * number($newest-first)"/>
    <xsl:if test="count($pages) &gt; 1">
      <nav class="pager" aria-label="Pages">
        <xsl:call-template name="pager-step">
          <xsl:with-param name="to" select="$pages[@number = $n - $step]"/>
          <xsl:with-param name="rel" select="'prev'"/>
          <xsl:with-param name="label">
            <xsl:choose>
              <xsl:when test="$newest-first">Newer</xsl:when>
              <xsl:otherwise>Previous</xsl:otherwise>
            </xsl:choose>
          </xsl:with-param>
        </xsl:call-template>
        <ol>
          <xsl:for-each select="$pages">
            <xsl:variable name="i" select="position()"/>
            <xsl:if test="$i &gt; 1 and (not($pages[$i - 1]/@number) or (@number - $pages[$i - 1]/@number) * $step &gt; 1)">
              <li class="gap" aria-hidden="true">…</li>
            </xsl:if>
            <li>
              <a href="{concat($root, @href)}">
                <xsl:if test="@number = $n">
                  <xsl:attribute name="aria-current">page</xsl:attribute>
                </xsl:if>
                <xsl:choose>
                  <xsl:when test="$newest-first and $i = 1">Latest</xsl:when>
                  <xsl:otherwise>
                    <span class="vh">Page </span>
                    <xsl:value-of select="@number"/>
                  </xsl:otherwise>
                </xsl:choose>
              </a>
            </li>
          </xsl:for-each>
        </ol>
        <xsl:call-template name="pager-step">
          <xsl:with-param name="to" select="$pages[@number = $n + $step]"/>
          <xsl:with-param name="rel" select="'next'"/>
          <xsl:with-param name="label">
            <xsl:choose>
              <xsl:when test="$newest-first">Older</xsl:when>
              <xsl:otherwise>Next</xsl:otherwise>
            </xsl:choose>
          </xsl:with-param>
        </xsl:call-template>
      </nav>
    </xsl:if>
  </xsl:template>

  <!-- The link to the previous or next page, or a disabled-looking span at the ends. -->
  <xsl:template name="pager-step">
    <xsl:param name="to"/>
    <xsl:param name="rel"/>
    <xsl:param name="label"/>
    <xsl:choose>
      <xsl:when test="$to and $rel = 'prev'">
        <a class="step" rel="prev" href="{concat($root, $to/@href)}"><span aria-hidden="true">←</span><xsl:value-of select="$label"/></a>
      </xsl:when>
      <xsl:when test="$to">
        <a class="step" rel="next" href="{concat($root, $to/@href)}"><xsl:value-of select="$label"/><span aria-hidden="true">→</span></a>
      </xsl:when>
      <xsl:when test="$rel = 'prev'">
        <span class="step off"><span aria-hidden="true">←</span><xsl:value-of select="$label"/></span>
      </xsl:when>
      <xsl:otherwise>
        <span class="step off"><xsl:value-of select="$label"/><span aria-hidden="true">→</span></span>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Context: the <history> of a "What's new" page's view. "3 snapshots" on the newest page (all of them), "25
       snapshots · page 3" on an older one, which must not change with every new snapshot. -->
  <xsl:template name="history-count">
    <xsl:choose>
      <xsl:when test="@snapshot-count"><xsl:value-of select="@snapshot-count"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="count(snapshot)"/></xsl:otherwise>
    </xsl:choose>
    <xsl:choose>
      <xsl:when test="(@snapshot-count and @snapshot-count = 1) or (not(@snapshot-count) and count(snapshot) = 1)"> snapshot</xsl:when>
      <xsl:otherwise> snapshots</xsl:otherwise>
    </xsl:choose>
    <xsl:if test="@page and not(@snapshot-count)">
      <xsl:text> · page </xsl:text>
      <xsl:value-of select="@page"/>
    </xsl:if>
  </xsl:template>

  <!-- Context: the <history> of a "What's new" page's view. " — page 3" in the title of an older page. -->
  <xsl:template name="history-title-page">
    <xsl:if test="@page and not(@snapshot-count)">
      <xsl:text> — page </xsl:text>
      <xsl:value-of select="@page"/>
    </xsl:if>
  </xsl:template>

  <!-- ============================================================ rights and link previews -->

  <!-- $text as a JSON string, safe inside a <script> element: quotes, backslashes, line breaks and tabs escaped,
       and every "<" written as \u003c so that no text can end the script. -->
  <xsl:template name="json-string">
    <xsl:param name="text"/>
    <xsl:choose>
      <!-- Most text needs no escape: one translate() finds out, and the text goes out as it is. -->
      <xsl:when test="translate($text, '\&quot;&lt;&#10;&#13;&#9;', '') = $text">
        <xsl:value-of select="concat('&quot;', $text, '&quot;')"/>
      </xsl:when>
      <xsl:otherwise><xsl:call-template name="json-escaped"><xsl:with-param name="text" select="$text"/></xsl:call-template></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- $text as a JSON string, each character that needs it escaped. EXSLT's str:replace (libexslt, in C) rather
       than a recursive template: a template call per escaped character would reach libxslt's depth limit on one
       long caption and stop the whole build. -->
  <xsl:template name="json-escaped">
    <xsl:param name="text"/>
    <xsl:value-of select="concat('&quot;', str:replace(str:replace(str:replace(str:replace(str:replace(str:replace(string($text), '\', '\\'), '&quot;', '\&quot;'), '&lt;', '\u003c'), '&#10;', '\n'), '&#13;', '\r'), '&#9;', '\t'), '&quot;')"/>
  </xsl:template>

  <!-- A JSON member "name": "value", with a leading comma unless $first; nothing when $value is empty. -->
  <xsl:template name="json-member">
    <xsl:param name="name"/>
    <xsl:param name="value"/>
    <xsl:param name="first" select="false()"/>
    <xsl:if test="string($value) != ''">
      <xsl:if test="not($first)">,</xsl:if>
      <xsl:value-of select="concat('&quot;', $name, '&quot;:')"/>
      <xsl:call-template name="json-string"><xsl:with-param name="text" select="$value"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- The URL of a path relative to the output root: absolute with a base URL, else relative to this page. -->
  <xsl:template name="page-url">
    <xsl:param name="href"/>
    <xsl:choose>
      <xsl:when test="$base-url"><xsl:value-of select="concat($base-url, $href)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="concat($root, $href)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The URL an <image> is at, absolute with a base URL (or when it is the API's own). -->
  <xsl:template name="image-url">
    <xsl:param name="img"/>
    <xsl:choose>
      <xsl:when test="$img/@url"><xsl:value-of select="$img/@url"/></xsl:when>
      <xsl:when test="$img/@src"><xsl:call-template name="page-url"><xsl:with-param name="href" select="$img/@src"/></xsl:call-template></xsl:when>
    </xsl:choose>
  </xsl:template>

  <!-- "Photo by NAME on SOURCE", or "Published by NAME", as plain text. Context: an entry. -->
  <xsl:template name="credit-text">
    <xsl:choose>
      <xsl:when test="credit/@role = 'publication'"><xsl:value-of select="concat('Published by ', credit/@name)"/></xsl:when>
      <xsl:when test="credit"><xsl:value-of select="concat('Photo by ', credit/@name, ' on ', $source-label)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="concat('From ', $source-label)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- One schema.org ImageObject, as JSON, for an entry with a picture: where it is, under which license, whom to
       credit and where its license can be had. Context: an entry. -->
  <xsl:template name="image-object">
    <xsl:variable name="img" select="(image[@role = 'full'][@src or @url] | image[@role = 'tile'][@src or @url][not(../image[@role = 'full'][@src or @url])])[1]"/>
    <!-- Plain XPath, not templates: this runs for every picture of every grid page. -->
    <xsl:variable name="content-url" select="concat($img/@url, substring(concat($url-prefix, $img/@src), 1, 100000 * number(boolean($img/@src) and not($img/@url))))"/>
    <xsl:variable name="credit-text" select="concat(substring(concat('Published by ', credit/@name), 1, 100000 * number(credit/@role = 'publication')), substring(concat('Photo by ', credit/@name, ' on ', $source-label), 1, 100000 * number(boolean(credit) and not(credit/@role = 'publication'))), substring(concat('From ', $source-label), 1, 100000 * number(not(credit))))"/>
    <xsl:variable name="name" select="normalize-space(caption)"/>
    <xsl:variable name="creator" select="string(credit/@name)"/>
    <xsl:variable name="creator-url" select="string(credit/@author-href | credit/@href[not(../@author-href)])"/>
    <xsl:variable name="values" select="concat($content-url, $name, license/@href, license[@declared-by]/@label, credit/@href, $credit-text, $creator, $creator-url)"/>
    <xsl:choose>
      <!-- Nearly always no value needs an escape, and one translate() finds that out for all of them: then each
           member is written in place, without a template call per member. -->
      <xsl:when test="translate($values, '\&quot;&lt;&#10;&#13;&#9;', '') = $values">
        <xsl:text>{"@type":"ImageObject"</xsl:text>
        <xsl:if test="$content-url != ''">,"contentUrl":"<xsl:value-of select="$content-url"/>"</xsl:if>
        <xsl:if test="$name != ''">,"name":"<xsl:value-of select="$name"/>"</xsl:if>
        <xsl:choose>
          <!-- A license the site declares for a source that names none says so: a CreativeWork, not a bare URL. -->
          <xsl:when test="license/@declared-by = 'site'">
            <xsl:text>,"license":{"@type":"CreativeWork","name":"</xsl:text>
            <xsl:value-of select="license/@label"/>
            <xsl:text> (declared by the site)"</xsl:text>
            <xsl:if test="string(license/@href) != ''">,"url":"<xsl:value-of select="license/@href"/>"</xsl:if>
            <xsl:text>}</xsl:text>
          </xsl:when>
          <xsl:when test="string(license/@href) != ''">,"license":"<xsl:value-of select="license/@href"/>"</xsl:when>
        </xsl:choose>
        <xsl:if test="string(credit/@href) != ''">,"acquireLicensePage":"<xsl:value-of select="credit/@href"/>"</xsl:if>
        <xsl:if test="$credit-text != ''">,"creditText":"<xsl:value-of select="$credit-text"/>"</xsl:if>
        <xsl:if test="credit">
          <xsl:text>,"creator":{</xsl:text>
          <xsl:choose>
            <xsl:when test="credit/@role = 'publication'">"@type":"Organization"</xsl:when>
            <xsl:otherwise>"@type":"Person"</xsl:otherwise>
          </xsl:choose>
          <xsl:if test="$creator != ''">,"name":"<xsl:value-of select="$creator"/>"</xsl:if>
          <xsl:if test="$creator-url != ''">,"url":"<xsl:value-of select="$creator-url"/>"</xsl:if>
          <xsl:text>}</xsl:text>
        </xsl:if>
        <xsl:if test="credit[not(@role = 'publication')] and license[@copies = 'forbidden' or starts-with(@label, 'CC BY')]">
          <xsl:value-of select="concat(',&quot;copyrightNotice&quot;:&quot;© ', $creator)"/>
          <xsl:if test="license/@copies = 'forbidden'">. All rights reserved.</xsl:if>
          <xsl:text>"</xsl:text>
        </xsl:if>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>{"@type":"ImageObject"</xsl:text>
        <xsl:call-template name="json-member"><xsl:with-param name="name" select="'contentUrl'"/><xsl:with-param name="value" select="$content-url"/></xsl:call-template>
        <xsl:call-template name="json-member"><xsl:with-param name="name" select="'name'"/><xsl:with-param name="value" select="normalize-space(caption)"/></xsl:call-template>
        <xsl:choose>
          <xsl:when test="license/@declared-by = 'site'">
            <xsl:text>,"license":{"@type":"CreativeWork"</xsl:text>
            <xsl:call-template name="json-member"><xsl:with-param name="name" select="'name'"/><xsl:with-param name="value" select="concat(license/@label, ' (declared by the site)')"/></xsl:call-template>
            <xsl:call-template name="json-member"><xsl:with-param name="name" select="'url'"/><xsl:with-param name="value" select="license/@href"/></xsl:call-template>
            <xsl:text>}</xsl:text>
          </xsl:when>
          <xsl:otherwise>
            <xsl:call-template name="json-member"><xsl:with-param name="name" select="'license'"/><xsl:with-param name="value" select="license/@href"/></xsl:call-template>
          </xsl:otherwise>
        </xsl:choose>
        <xsl:call-template name="json-member"><xsl:with-param name="name" select="'acquireLicensePage'"/><xsl:with-param name="value" select="credit/@href"/></xsl:call-template>
        <xsl:call-template name="json-member"><xsl:with-param name="name" select="'creditText'"/><xsl:with-param name="value" select="$credit-text"/></xsl:call-template>
        <xsl:if test="credit">
          <xsl:text>,"creator":{</xsl:text>
          <xsl:choose>
            <xsl:when test="credit/@role = 'publication'">"@type":"Organization"</xsl:when>
            <xsl:otherwise>"@type":"Person"</xsl:otherwise>
          </xsl:choose>
          <xsl:call-template name="json-member"><xsl:with-param name="name" select="'name'"/><xsl:with-param name="value" select="credit/@name"/></xsl:call-template>
          <xsl:call-template name="json-member"><xsl:with-param name="name" select="'url'"/><xsl:with-param name="value" select="credit/@author-href | credit/@href[not(../@author-href)]"/></xsl:call-template>
          <xsl:text>}</xsl:text>
        </xsl:if>
        <xsl:if test="credit[not(@role = 'publication')] and license[@copies = 'forbidden' or starts-with(@label, 'CC BY')]">
          <xsl:call-template name="json-member">
            <xsl:with-param name="name" select="'copyrightNotice'"/>
            <xsl:with-param name="value">
              <xsl:value-of select="concat('© ', credit/@name)"/>
              <xsl:if test="license/@copies = 'forbidden'">. All rights reserved.</xsl:if>
            </xsl:with-param>
          </xsl:call-template>
        </xsl:if>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:text>}</xsl:text>
  </xsl:template>

  <!-- A <script type="application/ld+json"> holding $json with the schema.org context. -->
  <xsl:template name="json-ld">
    <xsl:param name="json"/>
    <script type="application/ld+json">
      <xsl:value-of select="concat('{&quot;@context&quot;:&quot;https://schema.org&quot;,', substring($json, 2))"/>
    </script>
  </xsl:template>

  <!-- A link-preview card (Open Graph and Twitter) for this page: only with a base URL, which every one of its
       URLs needs. -->
  <xsl:template name="preview-card">
    <xsl:param name="title"/>
    <xsl:param name="description"/>
    <xsl:param name="image" select="/.."/>
    <xsl:if test="$base-url">
      <meta property="og:type" content="website"/>
      <meta property="og:title" content="{normalize-space($title)}"/>
      <xsl:if test="normalize-space($description) != ''">
        <meta property="og:description" content="{normalize-space($description)}"/>
      </xsl:if>
      <meta property="og:url" content="{concat($base-url, $current/@href)}"/>
      <xsl:if test="$image">
        <meta property="og:image">
          <xsl:attribute name="content"><xsl:call-template name="image-url"><xsl:with-param name="img" select="$image"/></xsl:call-template></xsl:attribute>
        </meta>
        <xsl:if test="floor(number($image/@width)) &gt; 0 and floor(number($image/@height)) &gt; 0">
          <meta property="og:image:width" content="{floor(number($image/@width))}"/>
          <meta property="og:image:height" content="{floor(number($image/@height))}"/>
        </xsl:if>
      </xsl:if>
      <meta name="twitter:card">
        <xsl:attribute name="content">
          <xsl:choose>
            <xsl:when test="$image">summary_large_image</xsl:when>
            <xsl:otherwise>summary</xsl:otherwise>
          </xsl:choose>
        </xsl:attribute>
      </meta>
    </xsl:if>
  </xsl:template>

  <!-- The rights data of a page showing one entry (preview and photo pages): of its picture, which the page names
       even when its image could not be downloaded (then without a contentUrl). -->
  <xsl:template match="entry" mode="rights-data">
    <xsl:if test="not(missing) and image">
      <xsl:variable name="object"><xsl:call-template name="image-object"/></xsl:variable>
      <xsl:call-template name="json-ld"><xsl:with-param name="json" select="$object"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- The card of a page showing one entry. -->
  <xsl:template match="entry" mode="card">
    <xsl:if test="$base-url">
      <xsl:variable name="title"><xsl:apply-templates select="." mode="title"/></xsl:variable>
      <xsl:variable name="description">
        <xsl:choose>
          <xsl:when test="missing"><xsl:value-of select="missing"/></xsl:when>
          <xsl:otherwise>
            <xsl:call-template name="credit-text"/>
            <xsl:if test="license"><xsl:value-of select="concat(' · ', license/@label)"/></xsl:if>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:variable>
      <!-- Its picture when it may be copied; a page without a picture of its own (no match, or a failed download)
           has the tile of another variant it links to, when that may be copied. -->
      <xsl:variable name="own" select="self::*[license/@copies = 'allowed']/image[@src or @url]"/>
      <xsl:call-template name="preview-card">
        <xsl:with-param name="title" select="$title"/>
        <xsl:with-param name="description" select="$description"/>
        <xsl:with-param name="image" select="($own[@role = 'full'] | $own[@role = 'tile'][not(../image[@role = 'full'][@src or @url])] | ../entry[license/@copies = 'allowed']/image[@role = 'tile'][@src or @url][not(current()/image[@src or @url])])[1]"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- The rights data of a grid page: the collection, and an ImageObject per picture on the page. -->
  <xsl:template match="page" mode="rights-data">
    <xsl:variable name="items" select="../item[@page = current()/@number]"/>
    <xsl:variable name="name"><xsl:call-template name="collection-name"><xsl:with-param name="c" select=".."/></xsl:call-template></xsl:variable>
    <xsl:variable name="url"><xsl:call-template name="page-url"><xsl:with-param name="href" select="@href"/></xsl:call-template></xsl:variable>
    <xsl:if test="$items/entry[image[@src or @url]]">
      <xsl:variable name="json">
        <xsl:text>{"@type":"ImageGallery"</xsl:text>
        <xsl:call-template name="json-member"><xsl:with-param name="name" select="'name'"/><xsl:with-param name="value" select="$name"/></xsl:call-template>
        <xsl:call-template name="json-member"><xsl:with-param name="name" select="'url'"/><xsl:with-param name="value" select="$url"/></xsl:call-template>
        <xsl:text>,"associatedMedia":[</xsl:text>
        <xsl:for-each select="$items/entry[image[@src or @url]]">
          <xsl:if test="position() &gt; 1">,</xsl:if>
          <xsl:call-template name="image-object"/>
        </xsl:for-each>
        <xsl:text>]}</xsl:text>
      </xsl:variable>
      <xsl:call-template name="json-ld"><xsl:with-param name="json" select="$json"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- The card of a grid page: the first tile that may be copied (plain XPath: a grid page has up to 100 items; the
       entry a tile shows is its item's first with a picture), else the collection's cover when it is a file. -->
  <xsl:template match="page" mode="card">
    <xsl:variable name="items" select="../item[@page = current()/@number]"/>
    <xsl:if test="$base-url">
      <xsl:variable name="title"><xsl:apply-templates select="." mode="title"/></xsl:variable>
      <xsl:variable name="tiles" select="$items/entry[not(missing)][1][license/@copies = 'allowed']/image[@role = 'tile'][@src or @url]"/>
      <xsl:call-template name="preview-card">
        <xsl:with-param name="title" select="$title"/>
        <xsl:with-param name="description">
          <xsl:choose>
            <xsl:when test="../@item-count"><xsl:value-of select="concat(../@item-count, ' images from ', $source-label)"/></xsl:when>
            <xsl:otherwise><xsl:value-of select="concat('Images from ', $source-label)"/></xsl:otherwise>
          </xsl:choose>
        </xsl:with-param>
        <xsl:with-param name="image" select="($tiles | ../image[@role = 'cover'][@src][not($tiles)])[1]"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
