<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: the home page of a site of several galleries (vitrine build).
  The model is a <site> (docs/model.md); $page is its @id, $root is ''.
  A card per gallery: its cover, title, size and source, linking to its first page.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="site" mode="body-class">home-page</xsl:template>

  <xsl:template match="site" mode="title"><xsl:value-of select="title"/></xsl:template>

  <xsl:template match="site" mode="head">
    <xsl:if test="@feed">
      <link rel="alternate" type="application/atom+xml" title="{title}" href="{concat($root, @feed)}"/>
    </xsl:if>
  </xsl:template>

  <!-- The home page's card: the site, with the first cover that is a file of the site (a cover has no license of
       its own: Vitrine keeps files only of pictures whose license lets others copy them). -->
  <xsl:template match="site" mode="card">
    <xsl:call-template name="preview-card">
      <xsl:with-param name="title" select="title"/>
      <xsl:with-param name="description" select="concat(count(gallery), ' galleries: ', gallery[1]/title, substring(', …', 1, 3 * number(count(gallery) &gt; 1)))"/>
      <xsl:with-param name="image" select="(gallery/image[@role = 'cover'][@src])[1]"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="site-header"><xsl:call-template name="home-header"/></xsl:template>

  <xsl:template name="site-footer"><xsl:call-template name="home-footer"/></xsl:template>

  <xsl:template match="site" mode="main">
    <div class="intro">
      <h1 dir="auto"><xsl:value-of select="title"/></h1>
    </div>
    <xsl:choose>
      <xsl:when test="gallery">
        <ol class="grid cards">
          <xsl:apply-templates select="gallery"/>
        </ol>
      </xsl:when>
      <xsl:otherwise>
        <p class="empty">No galleries.</p>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="gallery">
    <xsl:variable name="cover" select="image[@role = 'cover'][@src or @url]"/>
    <li class="tile" id="{@id}">
      <figure>
        <a class="frame" href="{concat($root, @href)}">
          <xsl:choose>
            <xsl:when test="$cover">
              <img alt="">
                <xsl:attribute name="src"><xsl:call-template name="image-href"><xsl:with-param name="img" select="$cover"/></xsl:call-template></xsl:attribute>
                <xsl:if test="floor(number($cover/@width)) &gt; 0 and floor(number($cover/@height)) &gt; 0">
                  <xsl:attribute name="width"><xsl:value-of select="floor(number($cover/@width))"/></xsl:attribute>
                  <xsl:attribute name="height"><xsl:value-of select="floor(number($cover/@height))"/></xsl:attribute>
                </xsl:if>
                <xsl:if test="position() &gt; 4">
                  <xsl:attribute name="loading">lazy</xsl:attribute>
                  <xsl:attribute name="decoding">async</xsl:attribute>
                </xsl:if>
              </img>
            </xsl:when>
            <xsl:otherwise>
              <span class="ph"><span class="ph-text"><strong>No images</strong></span></span>
            </xsl:otherwise>
          </xsl:choose>
          <span class="vh"><xsl:value-of select="title"/></span>
        </a>
        <figcaption>
          <a class="caption" href="{concat($root, @href)}" dir="auto"><xsl:value-of select="title"/></a>
          <span class="credit">
            <xsl:choose>
              <!-- a random page: "A new image every 10 minutes" -->
              <xsl:when test="schedule"><xsl:value-of select="schedule"/></xsl:when>
              <xsl:when test="@item-count = 1">1 image</xsl:when>
              <xsl:otherwise><xsl:value-of select="@item-count"/> images</xsl:otherwise>
            </xsl:choose>
            <xsl:text> from </xsl:text>
            <xsl:value-of select="source/@label"/>
            <xsl:for-each select="query">
              <xsl:choose>
                <xsl:when test="position() = 1"> for </xsl:when>
                <xsl:otherwise> and </xsl:otherwise>
              </xsl:choose>
              <q dir="auto"><xsl:value-of select="."/></q>
            </xsl:for-each>
          </span>
        </figcaption>
      </figure>
    </li>
  </xsl:template>

</xsl:stylesheet>
