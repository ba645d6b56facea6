<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: a gallery's search page (search.html), and, through site-search.xsl, a site's (search.html
  at the root, the model a <site>).
  $page is the @id of the <search> element ('search'); $root is the prefix to the output root.
  The page holds no results: search.js reads ?q= from the address, loads the index script (search/@index) and
  shows the entries that match as tiles. The search box is the header's (layout.xsl); without JavaScript the page
  points to the tag index, and the header hides the box.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="search" mode="body-class">search-page</xsl:template>

  <xsl:template match="search" mode="title">
    <xsl:text>Search — </xsl:text>
    <xsl:value-of select="/gallery/title | /site/title"/>
  </xsl:template>

  <xsl:template match="search" mode="card-description">
    <xsl:choose>
      <xsl:when test="/site"><xsl:value-of select="concat('Search the images of every gallery of ', /site/title, ' by their captions, tags and credits')"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="concat('Search the images of ', /gallery/title, ' by their captions, tags and credits')"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="search" mode="head">
    <script src="{concat($root, 'assets/search.js')}" defer="defer"></script>
  </xsl:template>

  <xsl:template match="search" mode="main">
    <div class="intro">
      <h1 id="search-title">Search</h1>
      <p class="count" id="search-status" role="status" aria-live="polite">
        <xsl:text>Type in the search box to find images by their captions, tags and credits</xsl:text>
        <xsl:if test="/site"> in every gallery</xsl:if>
        <xsl:text>.</xsl:text>
      </p>
    </div>
    <noscript>
      <p class="empty">
        <xsl:text>Search needs JavaScript. </xsl:text>
        <xsl:choose>
          <xsl:when test="/site">
            <xsl:if test="/site/tags">
              <a href="{concat($root, /site/tags/@href)}">Browse the tags</a>
              <xsl:text> or </xsl:text>
            </xsl:if>
            <a href="{concat($root, /site/@href)}">all galleries</a>
          </xsl:when>
          <xsl:when test="/gallery/tags">
            <a href="{concat($root, /gallery/tags/@href)}">Browse the tags</a>
            <xsl:text> or </xsl:text>
            <a href="{concat($root, $home-href)}">all images</a>
          </xsl:when>
          <xsl:otherwise>
            <a href="{concat($root, $home-href)}">Browse all images</a>
          </xsl:otherwise>
        </xsl:choose>
        <xsl:text>.</xsl:text>
      </p>
    </noscript>
    <ol class="grid search-results" id="search-results" aria-labelledby="search-title"
        data-index="{concat($root, @index)}" data-root="{$root}"></ol>
    <p class="more-results"><button type="button" id="search-more" hidden="hidden">Show more results</button></p>
  </xsl:template>

</xsl:stylesheet>
